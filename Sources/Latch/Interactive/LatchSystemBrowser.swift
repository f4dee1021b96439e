import Foundation

/// The system browser (RFC 8252 § 6: an external user agent, never an embedded web view): the
/// authorization request is opened with a command and the redirect comes back to the SDK's
/// loopback listener (RFC 8252 § 7.3), so ``redirectURI`` is `nil`.
///
/// The command is, first found: ``command``; the `BROWSER` environment variable (a
/// `:`-separated list, the first entry used; `%s` in it is replaced by the URL, else the URL is
/// appended); `xdg-open` on Linux and `open` on macOS. It runs without a shell.
///
/// The browser cannot say when the user closes its window, so a closed window ends in
/// ``LatchError/Code/userCanceled`` when ``LatchInteractiveParameters/timeout`` passes.
public struct LatchSystemBrowser: LatchWebBrowser {
    /// The command to open the URL with, as words (`["firefox", "--new-window"]`); `nil` for the
    /// `BROWSER` variable or the platform's opener.
    public var command: [String]?
    /// The environment `BROWSER` is read from.
    public var environment: [String: String]

    /// A system browser.
    public init(command: [String]? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.command = command
        self.environment = environment
    }

    /// Always `nil`: the loopback listener receives the redirect.
    public var redirectURI: URL? { nil }

    /// The program and arguments that open `url`.
    public func invocation(for url: URL) -> [String] {
        if let command, !command.isEmpty { return Self.substitute(command, url) }
        if let variable = environment["BROWSER"]?.split(separator: ":").first.map(String.init),
            !variable.trimmingCharacters(in: .whitespaces).isEmpty
        {
            return Self.substitute(variable.split(separator: " ").map(String.init), url)
        }
        #if os(macOS)
            return ["open", url.absoluteString]
        #else
            return ["xdg-open", url.absoluteString]
        #endif
    }

    /// `words` with `%s` replaced by the URL, or the URL appended when none has it.
    private static func substitute(_ words: [String], _ url: URL) -> [String] {
        guard words.contains(where: { $0.contains("%s") }) else { return words + [url.absoluteString] }
        return words.map { $0.replacingOccurrences(of: "%s", with: url.absoluteString) }
    }

    /// Starts the browser command and returns once it started (or, for an opener like `xdg-open`
    /// that hands the URL on and exits, once it exited successfully).
    /// - Throws: ``LatchError/Code/browserUnavailable`` when the command cannot be started or
    ///   exits with a failure status at once.
    public func open(_ url: URL, redirectURI: URL) async throws -> LatchBrowserOutcome {
        #if os(Linux) || os(macOS)
            let words = invocation(for: url)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = words
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let exited = AsyncStream<Int32>.makeStream()
            process.terminationHandler = { finished in
                exited.continuation.yield(finished.terminationStatus)
                exited.continuation.finish()
            }
            do {
                try process.run()
            } catch {
                throw LatchError(
                    code: .browserUnavailable, message: "The browser command '\(words.first ?? "")' could not be started.",
                    underlyingError: error)
            }
            // A browser that keeps running is fine; an opener that fails at once is not.
            let status = await Self.firstStatus(exited.stream, within: 2)
            if let status, status != 0 {
                throw LatchError(
                    code: .browserUnavailable,
                    message: "The browser command '\(words.first ?? "")' failed (exit status \(status)).")
            }
            return .awaitingRedirect
        #else
            throw LatchError(
                code: .browserUnavailable, message: "This platform has no system browser command; supply a LatchWebBrowser.")
        #endif
    }

    /// The exit status from `stream` if the process ends within `seconds`, else `nil`.
    private static func firstStatus(_ stream: AsyncStream<Int32>, within seconds: Double) async -> Int32? {
        await withTaskGroup(of: Int32?.self) { group in
            group.addTask {
                for await status in stream { return status }
                return nil
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
