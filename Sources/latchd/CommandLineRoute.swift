/// Where a `latchd` command line leads: a command with the words left for its options, or a group
/// of commands (`latchd tenant`) named without one of its commands.
enum CommandLineRoute {
    /// A command and its arguments (the command line without the command's own words).
    case command(CommandSpec, arguments: [String])
    /// A group such as `tenant`, named without `create` or `list`.
    case group(String)

    /// Finds the command `words` name: the first word names a command or a group; in a group the
    /// first later word that is neither an option nor an option's value names the command, so
    /// options may come before it (`latchd client --tenant acme list`).
    /// - Throws: ``UsageError`` for an unknown command, with the usage to show.
    init(_ words: [String]) throws {
        guard let first = words.first else { throw UsageError("no command given", usage: CommandSpec.fullHelp) }
        let commands = CommandSpec.commands(in: first)
        if let single = commands.first, single.words.count == 1 {
            self = .command(single, arguments: Array(words.dropFirst()))
            return
        }
        guard !commands.isEmpty else {
            throw UsageError("unknown command '\(first)'", usage: CommandSpec.fullHelp)
        }
        let valued = Set(commands.flatMap(\.options).filter(\.isValued).map { "--\($0.name)" })
        var index = 1
        while index < words.count {
            let word = words[index]
            if !Arguments.looksLikeOption(word) {
                guard let command = commands.first(where: { $0.words.last == word }) else {
                    throw UsageError("unknown command '\(first) \(word)'", usage: CommandSpec.groupUsage(first))
                }
                var rest = words
                rest.removeSubrange(0...index)
                self = .command(command, arguments: Array(words[1..<index]) + rest)
                return
            }
            index += valued.contains(word) ? 2 : 1
        }
        self = .group(first)
    }
}
