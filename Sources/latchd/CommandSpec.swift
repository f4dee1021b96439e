/// One `latchd` command as its command line sees it: the words that name it, the operands and the
/// flags and valued options it accepts, and what it does. ``Arguments`` parses against it, so an
/// option the command does not declare is a usage error; ``help`` documents it.
struct CommandSpec: Sendable {
    /// One `--name` a command accepts: a flag, or an option that takes a value.
    struct Option: Sendable {
        /// The name without the leading `--`.
        let name: String
        /// The placeholder of the value (`HOST:PORT`), or `nil` for a flag.
        let value: String?
        /// What it does, for the help.
        let summary: String
        /// Whether it may be given more than once (shown as `...`).
        var repeatable = false
        /// Whether the synopsis shows it without brackets (the command checks it).
        var required = false

        /// Whether the option takes a value.
        var isValued: Bool { value != nil }

        /// A flag: `--name`.
        static func flag(_ name: String, _ summary: String) -> Option {
            Option(name: name, value: nil, summary: summary)
        }

        /// An option with a value: `--name VALUE` or `--name=VALUE`.
        static func valued(
            _ name: String, _ value: String, _ summary: String, repeatable: Bool = false, required: Bool = false
        ) -> Option {
            Option(name: name, value: value, summary: summary, repeatable: repeatable, required: required)
        }
    }

    /// The words that name the command: `["tenant", "create"]`.
    let words: [String]
    /// The operands after the words, as the synopsis shows them (`NAME`); at most this many are accepted.
    var operands: [String] = []
    /// What the command does, one sentence.
    let summary: String
    /// The flags and valued options, in the order the help lists them.
    let options: [Option]

    /// The words joined: `tenant create`.
    var name: String { words.joined(separator: " ") }

    /// The declared option called `name` (without `--`).
    func option(named name: String) -> Option? {
        options.first { $0.name == name }
    }
}
