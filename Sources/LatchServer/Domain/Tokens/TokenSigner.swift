import LatchCrypto

/// Signs and verifies a tenant's JSON Web Tokens (RFC 7515 compact serialization). The domain holds
/// one of these, never key material: ``KeyRing`` is the production signer.
public protocol TokenSigner: Sendable {
    /// Signs `payload` (the JSON claim set) with `tenant`'s active key; `type` is the `typ` header
    /// (`JWT`, or `at+jwt` for RFC 9068 access tokens).
    func sign(_ payload: [UInt8], type: String, tenant: Tenant) throws -> String
    /// Verifies `token` against `tenant`'s published keys and returns its payload; `type` is the
    /// `typ` header it must carry (`at+jwt` for access tokens).
    /// - Throws: when the signature, the key id, the algorithm or the type does not check out.
    func verify(_ token: String, type: String, tenant: Tenant) throws -> [UInt8]
}

extension KeyRing: TokenSigner {
    public func sign(_ payload: [UInt8], type: String, tenant: Tenant) throws -> String {
        try JWT.sign(payload: payload, key: try signingKey(for: tenant), type: type)
    }

    public func verify(_ token: String, type: String, tenant: Tenant) throws -> [UInt8] {
        try JWT.verify(token, type: type) { kid in (try? verificationKey(id: kid, tenant: tenant)) ?? nil }
    }
}
