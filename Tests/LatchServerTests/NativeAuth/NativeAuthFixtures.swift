import Foundation
import LatchServer
import LatchTesting
import Testing

/// Values and checks the native-auth suites share.
enum NativeAuthFixture {
    /// Passwords the policy accepts for any of the test usernames.
    static let password = "Tr0ub4dor&3x"
    static let otherPassword = "c0rrect-H0rse-b4ttery"

    /// The `redirect_reason`-only answer of a client that cannot finish natively.
    static func expectRedirect(_ reply: NativeReply, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reply.status == 200, sourceLocation: sourceLocation)
        #expect(reply.keys == ["challenge_type", "redirect_reason"], sourceLocation: sourceLocation)
        #expect(reply.string("challenge_type") == "redirect", sourceLocation: sourceLocation)
        #expect(reply.string("redirect_reason")?.isEmpty == false, sourceLocation: sourceLocation)
    }
}

/// The ID-token claims, decoded with strict types (a string where a number belongs fails).
struct NativeIDTokenClaims: Decodable, Equatable {
    var iss: String
    var sub: String
    var aud: String
    var exp: Int
    var iat: Int
    var nbf: Int
    var auth_time: Int
    var amr: [String]
    var sid: String
    var tid: String
    var email: String
    var email_verified: Bool
    var name: String?
    var preferred_username: String?
}

extension NativeAuthFlows {
    /// Checks every claim of `tokens`' ID token for `email` signed in now with `amr`, and that the
    /// access token agrees on subject, session and tenant.
    func expectIDToken(
        _ tokens: IssuedTokens, email: String, amr: [String], name: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let data = try JSONSerialization.data(withJSONObject: tokens.idClaims)
        let claims = try JSONDecoder().decode(NativeIDTokenClaims.self, from: data)
        let user = try user(email, sourceLocation: sourceLocation)
        let tenant = try tenantRecord()
        #expect(claims.iss == "\(server.baseURL)/\(tenant.name)/v2.0", sourceLocation: sourceLocation)
        #expect(claims.sub == user.id, sourceLocation: sourceLocation)
        #expect(claims.aud == clientID, sourceLocation: sourceLocation)
        #expect(claims.iat == now, sourceLocation: sourceLocation)
        #expect(claims.nbf == now, sourceLocation: sourceLocation)
        #expect(claims.exp == now + tenant.settings.idTokenLifetime, sourceLocation: sourceLocation)
        #expect(claims.auth_time == now, sourceLocation: sourceLocation)
        #expect(claims.amr == amr, sourceLocation: sourceLocation)
        #expect(!claims.sid.isEmpty, sourceLocation: sourceLocation)
        #expect(claims.tid == tenant.id, sourceLocation: sourceLocation)
        #expect(claims.email == email, sourceLocation: sourceLocation)
        #expect(claims.email_verified, sourceLocation: sourceLocation)
        #expect(claims.name == name, sourceLocation: sourceLocation)
        #expect(tokens.idClaims["scp"] == nil, "an ID token carries no scopes", sourceLocation: sourceLocation)
        #expect(tokens.accessClaims["sub"] as? String == user.id, sourceLocation: sourceLocation)
        #expect(tokens.accessClaims["sid"] as? String == claims.sid, sourceLocation: sourceLocation)
        #expect(tokens.accessClaims["tid"] as? String == tenant.id, sourceLocation: sourceLocation)
        #expect(tokens.accessClaims["scp"] as? String == "openid offline_access", sourceLocation: sourceLocation)
    }
}
