#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Terminal settings saved while echo is off, for the signal handler. Allocated once and only
/// written before the handler is installed, so the handler may read it at any time.
nonisolated(unsafe) private let savedTerminal = UnsafeMutablePointer<termios>.allocate(capacity: 1)
/// The descriptor whose settings ``savedTerminal`` holds, or -1 when echo is not turned off.
nonisolated(unsafe) private var savedDescriptor: Int32 = -1

/// Signals that end the process while a password is typed.
private let terminatingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

/// The signal handler: restores the terminal, then dies of the same signal (so the shell sees the
/// usual status, e.g. 130 for Ctrl-C). Only async-signal-safe calls.
private func restoreTerminalAndReraise(_ signalNumber: Int32) {
    if savedDescriptor >= 0 { _ = tcsetattr(savedDescriptor, TCSANOW, savedTerminal) }
    var newline: UInt8 = 10
    _ = write(STDERR_FILENO, &newline, 1)
    _ = signal(signalNumber, SIG_DFL)
    _ = raise(signalNumber)
}

/// Turns terminal echo off while a password is typed, and back on on every path: normal return,
/// thrown error, and the terminating signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT).
enum TerminalEcho {
    /// Runs `body` with echo off on `descriptor`; when it is not a terminal, runs `body` unchanged.
    static func withEchoDisabled<T>(on descriptor: Int32 = STDIN_FILENO, _ body: () throws -> T) rethrows -> T {
        var original = termios()
        guard isatty(descriptor) == 1, tcgetattr(descriptor, &original) == 0 else { return try body() }
        savedTerminal.pointee = original
        savedDescriptor = descriptor
        let previousHandlers = terminatingSignals.map { signal($0, restoreTerminalAndReraise) }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        _ = tcsetattr(descriptor, TCSAFLUSH, &silent)
        defer {
            _ = tcsetattr(descriptor, TCSAFLUSH, &original)
            for (signalNumber, previous) in zip(terminatingSignals, previousHandlers) { _ = signal(signalNumber, previous) }
            savedDescriptor = -1
        }
        return try body()
    }
}
