/// The help and usage texts of `latchd` commands.
extension CommandSpec {
    /// Width the synopses wrap at.
    private static let width = 100
    /// What precedes the first synopsis; later ones are indented as far.
    private static let lead = "usage: "

    /// The synopsis, wrapped: `latchd serve [--listen HOST:PORT] ...`.
    var synopsis: String {
        var lines = ["latchd " + ([name] + operands).joined(separator: " ")]
        let indent = String(repeating: " ", count: "latchd \(name) ".count)
        for option in options {
            let part = (option.required ? option.spelling : "[\(option.spelling)]") + (option.repeatable ? "..." : "")
            if lines[lines.count - 1].count + 1 + part.count > Self.width {
                lines.append(indent + part)
            } else {
                lines[lines.count - 1] += " " + part
            }
        }
        return lines.joined(separator: "\n")
    }

    /// What a usage error of this command prints after the message.
    var usage: String {
        Self.synopses(of: [self]) + "\nRun 'latchd \(name) --help' for what each option does.\n"
    }

    /// The text of `latchd NAME --help`.
    var help: String {
        let rows = options.map { ($0.spelling, $0.summary + ($0.repeatable ? " Repeatable." : "")) }
        return """
            \(Self.synopses(of: [self]))

            \(summary)

            OPTIONS:
            \(Self.table(rows + [("-h, --help", "Show this help and do nothing else.")]))

            """
    }

    /// What a usage error in the group `group` (`tenant`, ...) prints after the message.
    static func groupUsage(_ group: String) -> String {
        synopses(of: commands(in: group)) + "\nRun 'latchd \(group) COMMAND --help' for what each option does.\n"
    }

    /// The text of `latchd GROUP --help`.
    static func groupHelp(_ group: String) -> String {
        """
        \(synopses(of: commands(in: group)))

        COMMANDS:
        \(table(commands(in: group).map { ("latchd \($0.name)", $0.summary) }))

        Run 'latchd \(group) COMMAND --help' for what each option does.

        """
    }

    /// The text of `latchd --help`: every command with every option it takes.
    static var fullHelp: String {
        let commands = all.map { ($0.name, $0.summary) } + [("help [COMMAND]", "Show this help, or the help of COMMAND.")]
        return """
            \(synopses(of: all))
                   latchd help [COMMAND]

            The Latch identity server (serve) and its administration, run against the data directory
            directly (the admin commands also work while the server runs).

            COMMANDS:
            \(table(commands))

            Run 'latchd COMMAND --help' (or -h) for what each option does; help starts and changes nothing.
            Exit status: 0 success, 1 failure, 2 usage error.

            """
    }

    /// The synopses of `commands`, one under the other after `usage: `.
    private static func synopses(of commands: [CommandSpec]) -> String {
        let indent = "\n" + String(repeating: " ", count: lead.count)
        let lines = commands.map { $0.synopsis.split(separator: "\n").joined(separator: indent) }
        return lead + lines.joined(separator: indent)
    }

    /// `rows` as two aligned columns, indented by two spaces; a long left cell puts its right one below.
    private static func table(_ rows: [(String, String)]) -> String {
        let column = min(rows.map(\.0.count).max() ?? 0, 28) + 2
        return rows.map { left, right in
            let gap = column - left.count
            let pad = gap > 0 ? String(repeating: " ", count: gap) : "\n" + String(repeating: " ", count: column + 2)
            return "  " + left + pad + right
        }.joined(separator: "\n")
    }
}

extension CommandSpec.Option {
    /// How the help writes it: `--listen HOST:PORT`, `--dev`.
    var spelling: String { "--\(name)" + (value.map { " \($0)" } ?? "") }
}
