import Foundation
import Latch
import Testing

/// `LatchClaimsChallenge.parse(wwwAuthenticate:)`: the `claims` auth-param of a `Bearer` challenge
/// (RFC 6750 § 3, RFC 9110 § 11.6.1), quoted or not, escaped, base64url or base64 or raw JSON.
@Suite("WWW-Authenticate claims challenges")
struct ClaimsChallengeParsingTests {
    static let json = #"{"access_token":{"acrs":{"essential":true,"value":"c1"}}}"#

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test(
        "the claims parameter of the Bearer challenge is found and decoded",
        arguments: [
            // Microsoft's CAE shape: quoted base64 among other parameters.
            #"Bearer realm="", authorization_uri="https://login.example.com/authorize", error="insufficient_claims", claims="\#(Data(json.utf8).base64EncodedString())""#,
            // base64url without padding.
            #"Bearer error="insufficient_claims", claims="\#(base64URL(json))""#,
            // a bare (unquoted) value.
            #"Bearer error=insufficient_claims, claims=\#(base64URL(json))"#,
            // raw JSON in a quoted string, its quotes escaped.
            #"Bearer error="insufficient_claims", claims="{\"access_token\":{\"acrs\":{\"essential\":true,\"value\":\"c1\"}}}""#,
            // case-insensitive scheme and parameter name, white space around `=`.
            #"bearer error="insufficient_claims", CLAIMS = "\#(base64URL(json))""#,
            // after other challenges, a token68 among them.
            #"Negotiate a2V5Ojk=, Basic realm="api", Bearer error="insufficient_claims", claims="\#(base64URL(json))""#,
            // a quoted parameter holding commas and `=` before it.
            #"Bearer error_description="needs, more=claims", claims="\#(base64URL(json))", error="insufficient_claims""#,
        ])
    func found(header: String) {
        #expect(LatchClaimsChallenge.parse(wwwAuthenticate: header) == Self.json)
    }

    @Test(
        "nil without a Bearer claims parameter holding a JSON object",
        arguments: [
            #"Bearer error="invalid_token""#, #"Basic realm="x", claims="\#(base64URL(json))""#, "", "Bearer",
            #"Bearer claims="not json""#, #"Bearer claims="\#(base64URL("[1,2]"))""#, #"Bearer claims="%%%""#,
            #"claims="\#(base64URL(json))""#,
        ])
    func notFound(header: String) {
        #expect(LatchClaimsChallenge.parse(wwwAuthenticate: header) == nil)
    }

    @Test("an escaped backslash and an unterminated quoted string")
    func escapes() {
        let withBackslash = #"{"access_token":{"note":{"value":"a\\b"}}}"#
        #expect(
            LatchClaimsChallenge.parse(wwwAuthenticate: #"Bearer claims="{\"access_token\":{\"note\":{\"value\":\"a\\\\b\"}}}""#)
                == withBackslash)
        #expect(LatchClaimsChallenge.parse(wwwAuthenticate: #"Bearer claims="\#(Self.base64URL(Self.json))"#) == Self.json)
    }
}
