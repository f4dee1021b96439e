/// A mistake on the command line (exit status ``ExitCode/usage``).
struct UsageError: Error, Sendable {
    /// What is wrong, as shown after `latch: `.
    let message: String
    /// The usage shown after the message, or `nil` for none.
    let usage: String?

    /// Creates an error with `message`, followed by `usage` when given.
    init(_ message: String, usage: String? = nil) {
        self.message = message
        self.usage = usage
    }
}
