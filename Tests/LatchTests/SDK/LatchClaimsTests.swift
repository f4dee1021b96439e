import Foundation
import Latch
import Testing

/// ``LatchClaims`` decoded from a claim set: registered claims, NumericDates and custom claims.
@Suite("SDK claims")
struct LatchClaimsTests {
    static let json = """
        {"iss":"https://id.example.com/default/v2.0","sub":"user-1","aud":["app","api"],"exp":1700003600,
         "iat":1700000000,"nbf":1700000000.5,"auth_time":1699999000,"amr":["pwd","otp"],"scp":"openid profile",
         "roles":["admin","billing"],"https://example.com/plan":"pro","quota":12,"ratio":0.25,"beta":true,
         "last_seen":1699990000,"address":{"country":"GB"},"nothing":null}
        """

    static func decode(_ text: String) throws -> LatchClaims {
        try JSONDecoder().decode(LatchClaims.self, from: Data(text.utf8))
    }

    @Test("registered claims by name, times as Dates (fractional NumericDates too)")
    func registered() throws {
        let claims = try Self.decode(Self.json)
        #expect(claims.issuer == "https://id.example.com/default/v2.0")
        #expect(claims.subject == "user-1")
        #expect(claims.audience == ["app", "api"])
        #expect(claims.expiresAt == Date(timeIntervalSince1970: 1_700_003_600))
        #expect(claims.issuedAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(claims.notBefore == Date(timeIntervalSince1970: 1_700_000_000.5))
        #expect(claims.authTime == Date(timeIntervalSince1970: 1_699_999_000))
        #expect(claims.authenticationMethods == ["pwd", "otp"])
        #expect(claims.scopes == ["openid", "profile"])
        #expect(claims.email == nil && claims.emailVerified == nil && claims.sessionID == nil)
    }

    @Test("custom claims are readable in the type the app asks for")
    func custom() throws {
        let claims = try Self.decode(Self.json)
        #expect(claims.value([String].self, for: "roles") == ["admin", "billing"])
        #expect(claims.value(String.self, for: "https://example.com/plan") == "pro")
        #expect(claims.value(Int.self, for: "quota") == 12)
        #expect(claims.value(Double.self, for: "ratio") == 0.25)
        #expect(claims.value(Bool.self, for: "beta") == true)
        #expect(claims.value(Date.self, for: "last_seen") == Date(timeIntervalSince1970: 1_699_990_000))
        #expect(claims.value([String: String].self, for: "address") == ["country": "GB"])
        #expect(claims.value(String?.self, for: "nothing") == .some(nil))
        #expect(claims.value(String.self, for: "quota") == nil, "another type")
        #expect(claims.value(String.self, for: "absent") == nil)
        #expect(claims.names.contains("roles") && claims.names.contains("nothing"))
        #expect(claims.names == claims.names.sorted())
    }

    @Test("a single-string audience is a one-element list; an encoded claim set decodes back equal")
    func roundTrip() throws {
        let single = try Self.decode(#"{"iss":"i","sub":"s","aud":"app","exp":2,"iat":1}"#)
        #expect(single.audience == ["app"])
        #expect(single.notBefore == nil && single.authTime == nil && single.authenticationMethods.isEmpty)
        let claims = try Self.decode(Self.json)
        let again = try JSONDecoder().decode(LatchClaims.self, from: try JSONEncoder().encode(claims))
        #expect(again == claims)
        #expect(again.value([String].self, for: "roles") == ["admin", "billing"])
    }

    @Test("a claim set without iss, sub, exp or iat is refused", arguments: ["iss", "sub", "exp", "iat"])
    func requiredClaims(_ missing: String) throws {
        var object: [String: Any] = ["iss": "i", "sub": "s", "exp": 2, "iat": 1]
        object.removeValue(forKey: missing)
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(LatchClaims.self, from: data) }
    }
}
