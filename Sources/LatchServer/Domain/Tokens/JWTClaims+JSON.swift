import LatchWire

extension JWTClaims {
    /// The claim set as a compact JSON object, with the member names of RFC 7519 § 4, OpenID
    /// Connect Core § 2 and RFC 9068 (the same names `JWTClaims`' `Codable` conformance uses, which
    /// verifiers decode).
    func jsonBytes() -> [UInt8] {
        var writer = JSONWriter()
        writer.member("iss", iss)
        writer.member("sub", sub)
        writer.member("aud", aud)
        writer.member("exp", exp)
        writer.member("iat", iat)
        writer.member("nbf", nbf)
        writer.member("jti", jti)
        writer.member("auth_time", authTime)
        writer.member("amr", amr)
        writer.member("acr", acr)
        writer.member("scp", scp)
        writer.member("sid", sid)
        writer.member("tid", tid)
        writer.member("client_id", clientID)
        writer.member("email", email)
        writer.member("email_verified", emailVerified)
        writer.member("name", name)
        writer.member("preferred_username", preferredUsername)
        writer.member("nonce", nonce)
        return writer.finish()
    }
}
