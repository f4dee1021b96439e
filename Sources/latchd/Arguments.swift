/// The options and operands of one `latchd` command, parsed against its ``CommandSpec``: `--flag`,
/// `--option value` and `--option=value`. An undeclared option, a missing value, a value given to a
/// flag and a surplus operand are usage errors that name the culprit.
struct Arguments {
    /// The words that are not options, in order.
    private(set) var operands: [String] = []
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `words` (the command line after the command's own words) for `command`.
    /// - Throws: ``UsageError`` naming the option or operand at fault.
    init(_ words: [String], for command: CommandSpec) throws {
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            guard word.hasPrefix("-"), word != "-" else {
                guard operands.count < command.operands.count else {
                    throw UsageError("unexpected argument '\(word)' for '\(command.name)'")
                }
                operands.append(word)
                continue
            }
            var name = word.hasPrefix("--") ? String(word.dropFirst(2)) : String(word.dropFirst())
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            let spelled = word.hasPrefix("--") ? "--\(name)" : "-\(name)"
            if spelled == "--help" || spelled == "-h" { throw UsageError("option '\(spelled)' takes no value") }
            guard word.hasPrefix("--"), let option = command.option(named: name) else {
                throw UsageError("unknown option '\(spelled)' for '\(command.name)'")
            }
            if option.isValued {
                if value == nil {
                    guard index < words.count, !Self.looksLikeOption(words[index]) else {
                        throw UsageError("option '\(spelled)' needs a value (\(option.value ?? "VALUE"))")
                    }
                    value = words[index]
                    index += 1
                }
                options[name, default: []].append(value ?? "")
            } else {
                guard value == nil else { throw UsageError("option '\(spelled)' takes no value") }
                flags.insert(name)
            }
        }
    }

    /// Whether `word` is an option rather than the value of the one before it; a value that starts
    /// with `-` is written `--option=-value`.
    static func looksLikeOption(_ word: String) -> Bool {
        word.hasPrefix("-") && word != "-"
    }

    /// Whether `words` ask for help: `--help` or `-h` anywhere.
    static func asksForHelp(_ words: [String]) -> Bool {
        words.contains { $0 == "--help" || $0 == "-h" }
    }

    /// The value of `--name`.
    func value(_ name: String) -> String? { options[name]?.last }
    /// Every value of a repeatable `--name`.
    func values(_ name: String) -> [String] { options[name] ?? [] }
    /// Whether `--name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }
    /// Names of every option and flag given.
    var given: Set<String> { flags.union(options.keys) }
}
