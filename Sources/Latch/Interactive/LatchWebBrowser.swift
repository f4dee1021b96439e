import Foundation

/// Where an interactive sign-in happens: the authorization request (RFC 6749 § 4.1.1) is shown in
/// a browser, and the redirect back to the app (§ 4.1.2) is captured either by the browser itself
/// (a private-use URI scheme, RFC 8252 § 7.1, as `ASWebAuthenticationSession` does) or by the SDK's
/// one-shot loopback listener on `127.0.0.1` (RFC 8252 § 7.3).
///
/// The SDK ships ``LatchSystemBrowser`` (Linux and macOS: the system browser plus the loopback
/// listener) and, on Apple platforms, ``LatchAuthenticationSessionBrowser``; an app may supply its
/// own, and tests use `ScriptedBrowser` from `LatchSDKTesting`.
public protocol LatchWebBrowser: Sendable {
    /// The redirect URI this browser captures itself (e.g. `com.example.app:/oauth2redirect`), or
    /// `nil` when the redirect goes to the SDK's loopback listener,
    /// `http://127.0.0.1:{port}/callback` (RFC 8252 § 7.3).
    var redirectURI: URL? { get }

    /// Shows `url`, the authorization request whose `redirect_uri` is `redirectURI`.
    /// - Returns: ``LatchBrowserOutcome/redirected(_:)`` with the redirect URL when the browser
    ///   captured it, or ``LatchBrowserOutcome/awaitingRedirect`` when it only showed the page and
    ///   the loopback listener waits for the redirect.
    /// - Throws: ``LatchError/Code/userCanceled`` when the user closed the browser; any other error
    ///   ends the sign-in with it.
    func open(_ url: URL, redirectURI: URL) async throws -> LatchBrowserOutcome
}

/// What ``LatchWebBrowser/open(_:redirectURI:)`` did.
public enum LatchBrowserOutcome: Sendable, Equatable {
    /// The browser captured the redirect to the app (RFC 6749 § 4.1.2): this URL.
    case redirected(URL)
    /// The page is showing; the loopback listener waits for the redirect.
    case awaitingRedirect
}
