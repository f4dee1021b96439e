/// A command-line mistake; printed with a usage text, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    /// The usage printed after the message; `nil` prints the usage of the command being run.
    let usage: String?

    init(_ description: String, usage: String? = nil) {
        self.description = description
        self.usage = usage
    }
}
