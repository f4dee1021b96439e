import Foundation

/// How redirect URIs are registered and matched (RFC 6749 § 3.1.2, RFC 8252 § 7, RFC 9700 § 4.1.1):
/// a requested URI must equal a registered one character for character, except that a loopback
/// `http` URI (`127.0.0.1` or `[::1]`) matches a registered one on any port, because a native app
/// listens on whatever port the system gives it (RFC 8252 § 7.3).
public enum RedirectURIRule {
    /// Whether `uri` may be registered: an absolute URI without a fragment (RFC 6749 § 3.1.2), and
    /// `https`, `http` on a loopback address (RFC 8252 § 7.3), or a private-use scheme in reverse
    /// domain-name form such as `com.example.app:/cb` (RFC 8252 § 7.1).
    public static func isRegistrable(_ uri: String) -> Bool {
        guard uri.utf8.count <= 2048, !uri.contains("#"), !uri.contains(where: \.isWhitespace),
            let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased()
        else { return false }
        switch scheme {
        case "https": return components.host.map { !$0.isEmpty } ?? false
        case "http": return isLoopback(components)
        default:
            // RFC 8252 § 7.1: a private-use scheme names a domain the app's publisher controls.
            return scheme.contains(".") && components.user == nil && components.password == nil
        }
    }

    /// Whether the requested `uri` matches one of `registered`; with `anyLoopback`, every loopback
    /// `http` URI does (the development client).
    public static func matches(_ uri: String, registered: [String], anyLoopback: Bool = false) -> Bool {
        guard !uri.isEmpty, uri.utf8.count <= 2048, !uri.contains("#") else { return false }
        if registered.contains(uri) { return true }
        guard let requested = URLComponents(string: uri), requested.scheme == "http", isLoopback(requested),
            requested.user == nil, requested.password == nil
        else { return false }
        if anyLoopback { return true }
        let portless = withoutPort(requested)
        return registered.contains { candidate in
            guard let components = URLComponents(string: candidate), components.scheme == "http", isLoopback(components)
            else { return false }
            return withoutPort(components) == portless
        }
    }

    /// Whether `components` names `127.0.0.1` or `[::1]` (RFC 8252 § 8.3 prefers the literal
    /// addresses to `localhost`, which a resolver might send elsewhere).
    static func isLoopback(_ components: URLComponents) -> Bool {
        guard let host = components.host else { return false }
        return host == "127.0.0.1" || host == "::1" || host == "[::1]"
    }

    private static func withoutPort(_ components: URLComponents) -> String {
        var copy = components
        copy.port = nil
        return copy.string ?? ""
    }
}
