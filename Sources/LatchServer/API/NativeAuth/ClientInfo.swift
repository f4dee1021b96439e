import Foundation
import LatchWire

/// MSAL's `client_info` token-response member: base64url JSON `{"uid","utid"}` naming the account
/// and its tenant, sent when the request carried `client_info=1`.
enum ClientInfo {
    static func encode(_ tokens: IssuedTokens) -> String {
        let json =
            (try? JSONSerialization.data(
                withJSONObject: ["uid": tokens.subject, "utid": tokens.tenantID], options: [.sortedKeys])) ?? Data()
        return Base64URL.encode(json)
    }
}
