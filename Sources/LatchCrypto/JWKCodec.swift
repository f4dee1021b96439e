internal import CCrypto
import LatchWire

/// Converts between libcrypto public keys and JWK members (RFC 7518 §§ 6.2.1, 6.3.1).
enum JWKCodec {
    /// The size in bytes of a P-256 coordinate / scalar.
    static let p256CoordinateSize = 32

    /// Exports the public half of `key` as a JWK with `kid`, `alg` and `use: "sig"`.
    static func publicJWK(of key: PKey, id: String, algorithm: SigningAlgorithm) throws(CryptoError) -> JWK {
        switch algorithm {
        case .es256:
            let x = try bigNumber(OSSL_PKEY_PARAM_EC_PUB_X, of: key, width: p256CoordinateSize)
            let y = try bigNumber(OSSL_PKEY_PARAM_EC_PUB_Y, of: key, width: p256CoordinateSize)
            return JWK(
                kty: "EC", crv: "P-256", x: Base64URL.encode(x), y: Base64URL.encode(y),
                kid: id, alg: algorithm.rawValue)
        case .rs256:
            let n = try bigNumber(OSSL_PKEY_PARAM_RSA_N, of: key, width: nil)
            let e = try bigNumber(OSSL_PKEY_PARAM_RSA_E, of: key, width: nil)
            return JWK(kty: "RSA", n: Base64URL.encode(n), e: Base64URL.encode(e), kid: id, alg: algorithm.rawValue)
        }
    }

    /// Builds a verification-only key from a public JWK, validating every member.
    static func publicKey(from jwk: JWK) throws(CryptoError) -> (PKey, SigningAlgorithm) {
        guard let algorithm = SigningAlgorithm(rawValue: jwk.alg) else {
            throw CryptoError("unsupported JWK alg (only ES256 and RS256 are supported)")
        }
        guard jwk.use == "sig" else { throw CryptoError("JWK use is not \"sig\"") }
        guard jwk.kty == algorithm.keyType else { throw CryptoError("JWK kty does not match its alg") }
        let key: PKey
        switch algorithm {
        case .es256:
            guard jwk.crv == "P-256" else { throw CryptoError("ES256 JWK crv is not P-256") }
            guard let x = jwk.x.flatMap(Base64URL.decode), let y = jwk.y.flatMap(Base64URL.decode),
                x.count == p256CoordinateSize, y.count == p256CoordinateSize
            else { throw CryptoError("EC JWK x/y are not 32-byte base64url values") }
            key = try ecPublicKey(point: [0x04] + x + y)
        case .rs256:
            guard let n = jwk.n.flatMap(Base64URL.decode), let e = jwk.e.flatMap(Base64URL.decode),
                !n.isEmpty, !e.isEmpty, e.count <= 8
            else { throw CryptoError("RSA JWK n/e are missing or not base64url") }
            key = try rsaPublicKey(modulus: n, exponent: e)
        }
        try checkPublicKey(key)  // SigningKey.init then checks curve / modulus size
        return (key, algorithm)
    }

    // MARK: - Private

    /// `EVP_PKEY_PUBLIC_KEY`, which Swift cannot import because it is a compound macro.
    private static let publicKeySelection =
        OSSL_KEYMGMT_SELECT_PUBLIC_KEY | OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS

    /// Reads a BIGNUM parameter as unsigned big-endian bytes, left-padded to `width` if given.
    private static func bigNumber(_ name: String, of key: PKey, width: Int?) throws(CryptoError) -> [UInt8] {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key.pointer, name, &number) == 1, let number else {
            throw LibCrypto.failure("cannot read public key parameter \(name)")
        }
        defer { BN_free(number) }
        let length = width ?? (Int(BN_num_bits(number)) + 7) / 8
        var output = [UInt8](repeating: 0, count: length)
        let written = output.withUnsafeMutableBufferPointer { buffer in
            BN_bn2binpad(number, buffer.baseAddress, Int32(length))
        }
        guard written == Int32(length) else { throw CryptoError("public key parameter \(name) does not fit") }
        return output
    }

    /// `EVP_PKEY_fromdata` for a P-256 public point `0x04 || x || y`; libcrypto rejects points
    /// that are not on the curve.
    private static func ecPublicKey(point: [UInt8]) throws(CryptoError) -> PKey {
        guard let builder = OSSL_PARAM_BLD_new() else { throw LibCrypto.failure("OSSL_PARAM_BLD_new failed") }
        defer { OSSL_PARAM_BLD_free(builder) }
        // The builder keeps the pointers it is given until OSSL_PARAM_BLD_to_param, and the
        // resulting OSSL_PARAM array keeps pointing at the (static) names.
        let result: Result<PKey, CryptoError> = point.withUnsafeBytes { bytes in
            guard
                OSSL_PARAM_BLD_push_utf8_string(
                    builder, ("group" as StaticString).cString, ("prime256v1" as StaticString).cString, 0) == 1,
                OSSL_PARAM_BLD_push_octet_string(
                    builder, ("pub" as StaticString).cString, bytes.baseAddress, bytes.count)
                    == 1
            else { return .failure(LibCrypto.failure("cannot build EC key parameters")) }
            return Result { () throws(CryptoError) in try fromData(builder, type: "EC") }
        }
        return try result.get()
    }

    /// `EVP_PKEY_fromdata` for an RSA public key from its modulus and exponent.
    private static func rsaPublicKey(modulus: [UInt8], exponent: [UInt8]) throws(CryptoError) -> PKey {
        guard modulus.count <= 2048, let n = BN_bin2bn(modulus, Int32(modulus.count), nil) else {
            throw CryptoError("RSA modulus is too large or invalid")
        }
        defer { BN_free(n) }
        guard let e = BN_bin2bn(exponent, Int32(exponent.count), nil) else {
            throw LibCrypto.failure("BN_bin2bn failed")
        }
        defer { BN_free(e) }
        guard let builder = OSSL_PARAM_BLD_new() else { throw LibCrypto.failure("OSSL_PARAM_BLD_new failed") }
        defer { OSSL_PARAM_BLD_free(builder) }
        guard OSSL_PARAM_BLD_push_BN(builder, ("n" as StaticString).cString, n) == 1,
            OSSL_PARAM_BLD_push_BN(builder, ("e" as StaticString).cString, e) == 1
        else { throw LibCrypto.failure("cannot build RSA key parameters") }
        return try fromData(builder, type: "RSA")
    }

    /// Turns the builder's parameters into a public `EVP_PKEY` of `type`.
    private static func fromData(_ builder: OpaquePointer, type: StaticString) throws(CryptoError) -> PKey {
        guard let parameters = OSSL_PARAM_BLD_to_param(builder) else {
            throw LibCrypto.failure("OSSL_PARAM_BLD_to_param failed")
        }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type.cString, nil) else {
            throw LibCrypto.failure("EVP_PKEY_CTX_new_from_name failed")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &key, publicKeySelection, parameters) == 1, let key
        else { throw LibCrypto.failure("JWK is not a valid public key") }
        return PKey(adopting: key)
    }

    /// Runs libcrypto's public-key validation (point on curve and in the subgroup; RSA modulus
    /// odd and exponent sane).
    private static func checkPublicKey(_ key: PKey) throws(CryptoError) {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else {
            throw LibCrypto.failure("EVP_PKEY_CTX_new_from_pkey failed")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_public_check(context) == 1 else { throw LibCrypto.failure("JWK public key failed validation") }
    }
}
