import Foundation
import LatchCrypto
import LatchWire
import Testing

/// Known-answer tests from RFC 7515 Appendix A.2 (RS256) and A.3 (ES256).
@Suite struct RFC7515VectorTests {
    /// The JWS Payload of A.1–A.3: `{"iss":"joe",\r\n "exp":1300819380,\r\n "http://example.com/is_root":true}`.
    static let payload =
        "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"

    static let a2Token =
        "eyJhbGciOiJSUzI1NiJ9." + payload + "."
        + "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw"
    static let a2Key = JWK(
        kty: "RSA",
        n:
            "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ",
        e: "AQAB", kid: "rfc7515-a2", alg: "RS256")

    static let a3Token =
        "eyJhbGciOiJFUzI1NiJ9." + payload + "."
        + "DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
    static let a3Key = JWK(
        kty: "EC", crv: "P-256", x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
        y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0", kid: "rfc7515-a3", alg: "ES256")

    static let expectedPayload = "{\"iss\":\"joe\",\r\n \"exp\":1300819380,\r\n \"http://example.com/is_root\":true}"

    @Test(arguments: [(a2Token, a2Key), (a3Token, a3Key)])
    func knownAnswerVerifies(_ token: String, _ jwk: JWK) throws {
        let key = try SigningKey(publicJWK: jwk)
        #expect(key.publicJWK == jwk)
        let parts = token.split(separator: ".")
        let signingInput = Array((parts[0] + "." + parts[1]).utf8)
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(key.isValidSignature(signature, for: signingInput))
        #expect(!key.isValidSignature(signature, for: signingInput + [0x20]))
        // The RFC headers carry no kid, which Latch requires to pick the key.
        #expect(throws: JWTError.unknownKey) { try JWT.verify(token, key: { _ in key }) }
        #expect(JWT.unverifiedPayload(token).map { String(decoding: $0, as: UTF8.self) } == Self.expectedPayload)
    }

    @Test func knownAnswerSignatureUnderAnotherHeaderFails() throws {
        // The RFC signature moved under a header that adds a kid no longer covers its input.
        let key = try SigningKey(publicJWK: Self.a3Key)
        let header = Base64URL.encode(Array(#"{"alg":"ES256","kid":"rfc7515-a3"}"#.utf8))
        let token = header + "." + Self.payload + "." + Self.a3Token.split(separator: ".")[2]
        #expect(throws: JWTError.badSignature) { try JWT.verify(token, key: Fixtures.lookup(key)) }
    }
}
