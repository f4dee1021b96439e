#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
    import AuthenticationServices
    import Foundation

    /// The Apple platforms' browser for an interactive sign-in: `ASWebAuthenticationSession`, which
    /// shares the system browser's cookies (RFC 8252 § 6: an external user agent) and captures the
    /// redirect to the app's private-use URI scheme itself (RFC 8252 § 7.1), e.g.
    /// `com.example.app:/oauth2redirect`, registered as a redirect URI of the client.
    ///
    /// ```swift
    /// let browser = LatchAuthenticationSessionBrowser(
    ///     redirectURI: URL(string: "com.example.app:/oauth2redirect")!) { view.window! }
    /// let result = try await client.acquireToken(parameters: LatchInteractiveParameters(browser: browser))
    /// ```
    /// Closing the sheet ends the sign-in with ``LatchError/Code/userCanceled``.
    public final class LatchAuthenticationSessionBrowser: NSObject, LatchWebBrowser,
        ASWebAuthenticationPresentationContextProviding, @unchecked Sendable
    {
        /// The private-use-scheme redirect URI the session captures.
        public let redirectURI: URL?
        /// Whether the session keeps no cookies (no single sign-on with the browser).
        public let prefersEphemeralWebBrowserSession: Bool
        private let anchor: @MainActor @Sendable () -> ASPresentationAnchor
        /// The running session, touched on the main actor only (the system expects it retained).
        @MainActor private var running: ASWebAuthenticationSession?

        /// A browser whose sheet is presented over the window `anchor` returns.
        public init(
            redirectURI: URL, prefersEphemeralWebBrowserSession: Bool = false,
            presentationAnchor anchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor
        ) {
            self.redirectURI = redirectURI
            self.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
            self.anchor = anchor
        }

        /// Presents the session and returns the redirect it captured.
        /// - Throws: ``LatchError/Code/userCanceled`` when the user closed the sheet or the task was
        ///   cancelled; ``LatchError/Code/browserUnavailable`` when the session could not start.
        public func open(_ url: URL, redirectURI: URL) async throws -> LatchBrowserOutcome {
            guard let scheme = redirectURI.scheme else {
                throw LatchError(code: .invalidConfiguration, message: "The redirect URI '\(redirectURI)' has no scheme.")
            }
            let callback: URL = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    Task { @MainActor in
                        let finished: ASWebAuthenticationSession.CompletionHandler = { [weak self] url, error in
                            Task { @MainActor in self?.running = nil }
                            if let url {
                                continuation.resume(returning: url)
                            } else if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                                continuation.resume(
                                    throwing: LatchError(
                                        code: .userCanceled, message: "The user closed the sign-in.", underlyingError: error))
                            } else {
                                continuation.resume(
                                    throwing: LatchError(
                                        code: .browserUnavailable, message: "The web authentication session failed.",
                                        underlyingError: error))
                            }
                        }
                        let session: ASWebAuthenticationSession
                        if #available(iOS 17.4, macOS 14.4, *) {
                            session = ASWebAuthenticationSession(
                                url: url, callback: .customScheme(scheme), completionHandler: finished)
                        } else {
                            session = ASWebAuthenticationSession(
                                url: url, callbackURLScheme: scheme, completionHandler: finished)
                        }
                        session.presentationContextProvider = self
                        session.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
                        running = session
                        if !session.start() {
                            running = nil
                            continuation.resume(
                                throwing: LatchError(
                                    code: .browserUnavailable, message: "The web authentication session could not start."))
                        }
                    }
                }
            } onCancel: {
                Task { @MainActor [weak self] in self?.running?.cancel() }
            }
            return .redirected(callback)
        }

        /// The window the sheet is presented over.
        public func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
            MainActor.assumeIsolated { anchor() }
        }
    }
#endif
