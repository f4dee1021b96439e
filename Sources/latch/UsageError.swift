/// A mistake on the command line (exit status ``ExitCode/usage``).
struct UsageError: Error, Sendable {
    /// What is wrong, as shown after `latch: `.
    let message: String

    /// Creates an error with `message`.
    init(_ message: String) {
        self.message = message
    }
}
