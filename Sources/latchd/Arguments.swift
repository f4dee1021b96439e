/// A minimal command-line parser: positional words, `--flag`, `--option value` and `--option=value`.
struct Arguments {
    private(set) var positional: [String] = []
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `words`; `valued` names the options that take a value.
    init(_ words: [String], valued: Set<String>) throws {
        var index = 0
        while index < words.count {
            let word = words[index]
            if word.hasPrefix("--") {
                var name = String(word.dropFirst(2))
                var value: String?
                if let equals = name.firstIndex(of: "=") {
                    value = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                if valued.contains(name) {
                    if value == nil {
                        index += 1
                        guard index < words.count else { throw UsageError("--\(name) needs a value") }
                        value = words[index]
                    }
                    options[name, default: []].append(value ?? "")
                } else {
                    guard value == nil else { throw UsageError("--\(name) takes no value") }
                    flags.insert(name)
                }
            } else {
                positional.append(word)
            }
            index += 1
        }
    }

    /// The last value of `--name`.
    func value(_ name: String) -> String? { options[name]?.last }
    /// Every value of a repeatable `--name`.
    func values(_ name: String) -> [String] { options[name] ?? [] }
    /// Whether `--name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }
    /// Names of every option and flag given.
    var given: Set<String> { flags.union(options.keys) }
}

/// A command-line mistake; printed with the usage text, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
