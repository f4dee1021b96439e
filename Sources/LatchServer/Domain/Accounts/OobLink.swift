import Foundation

/// The action link an out-of-band code travels in: the hosted action page under the server's
/// public origin, in the Firebase emulator's `oobLink` layout
/// (`reference/firebase-auth-protocol.md` § 7):
/// `{origin}/emulator/action?mode=<mode>&lang=en&oobCode=<code>&apiKey=<key>[&continueUrl=<url>]`.
/// The same page is served at `/__/auth/action`.
public enum OobLink {
    /// The path of the hosted action page in links.
    public static let path = "/emulator/action"
    /// The second path the page answers at (the hosted-domain layout).
    public static let hostedPath = "/__/auth/action"

    /// The page's `mode` for codes of `kind`.
    public static func mode(of kind: OobCodeKind) -> String {
        switch kind {
        case .verifyEmail: "verifyEmail"
        case .passwordReset: "resetPassword"
        case .verifyAndChangeEmail: "verifyAndChangeEmail"
        case .emailSignIn: "signIn"
        }
    }

    /// The kind a page `mode` names, if any.
    public static func kind(mode: String?) -> OobCodeKind? {
        OobCodeKind.allCases.first { self.mode(of: $0) == mode }
    }

    /// The action link carrying `code` in a message `body`, if there is one.
    public static func find(in body: String, code: String) -> String? {
        body.split(whereSeparator: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "\"" }).map(String.init).first {
            ($0.hasPrefix("http://") || $0.hasPrefix("https://")) && $0.contains("oobCode=" + encode(code))
        }
    }

    /// The code kind an action link's `mode` names.
    public static func kind(of link: String) -> OobCodeKind? {
        kind(mode: URLComponents(string: link)?.queryItems?.first { $0.name == "mode" }?.value)
    }

    /// The link for `code` of `kind`, for the client with `apiKey`.
    public static func link(origin: String, kind: OobCodeKind, code: String, apiKey: String, continueURL: String?) -> String {
        var query = [("mode", mode(of: kind)), ("lang", "en"), ("oobCode", code), ("apiKey", apiKey)]
        if let continueURL { query.append(("continueUrl", continueURL)) }
        let encoded = query.map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&")
        return origin + path + "?" + encoded
    }

    /// Percent-encodes a query value: everything but RFC 3986 § 2.3 unreserved characters.
    static func encode(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }
}
