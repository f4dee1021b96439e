internal import CCrypto

/// One-shot SHA-256 signing and verification through `EVP_DigestSign` / `EVP_DigestVerify`.
///
/// Each call uses its own `EVP_MD_CTX`, so a shared key can sign on many threads at once.
/// ECDSA signatures are DER here; ``ECDSASignature`` converts them for JWS.
enum DigestSigner {
    /// SHA-256 fetched once from the default provider. `EVP_sha256()` would make every sign or
    /// verify look the implementation up again (OpenSSL 3's implicit fetch, visible as
    /// `OPENSSL_LH_doall_arg` in profiles of the token endpoint).
    private static let sha256 = FetchedDigest(name: "SHA256")

    /// Signs `message` with SHA-256 (PKCS#1 v1.5 padding for RSA, DER output for ECDSA).
    static func sign(_ message: [UInt8], with key: PKey) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw LibCrypto.failure("EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, sha256.pointer ?? EVP_sha256(), nil, key.pointer) == 1 else {
            throw LibCrypto.failure("EVP_DigestSignInit failed")
        }
        var signature = [UInt8](repeating: 0, count: key.maximumSignatureSize)
        var length = signature.count
        let status = signature.withUnsafeMutableBufferPointer { out in
            message.withUnsafeBufferPointer { input in
                EVP_DigestSign(context, out.baseAddress, &length, input.baseAddress, input.count)
            }
        }
        guard status == 1, length <= signature.count else { throw LibCrypto.failure("EVP_DigestSign failed") }
        signature.removeLast(signature.count - length)
        return signature
    }

    /// Whether `signature` (DER for ECDSA) is valid for `message` under `key`.
    static func verify(_ signature: [UInt8], for message: [UInt8], with key: PKey) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, sha256.pointer ?? EVP_sha256(), nil, key.pointer) == 1 else {
            LibCrypto.clearErrors()
            return false
        }
        let status = signature.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { input in
                EVP_DigestVerify(context, sig.baseAddress, sig.count, input.baseAddress, input.count)
            }
        }
        if status != 1 { LibCrypto.clearErrors() }
        return status == 1
    }
}

/// An `EVP_MD` fetched explicitly (OpenSSL 3 "Algorithm fetching"), held for the process's life.
private struct FetchedDigest: @unchecked Sendable {  // the EVP_MD is immutable once fetched
    let pointer: OpaquePointer?

    init(name: String) {
        pointer = EVP_MD_fetch(nil, name, nil)
    }
}
