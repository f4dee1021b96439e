internal import CCrypto

/// Reads and writes PKCS#8 private keys in PEM form (RFC 5208, RFC 7468 § 10).
enum PEMCodec {
    /// Parses an unencrypted private key PEM. PKCS#8 (`BEGIN PRIVATE KEY`) is expected; the
    /// traditional `BEGIN EC/RSA PRIVATE KEY` forms are accepted too. Encrypted PEMs are
    /// rejected: no passphrase prompt is ever shown.
    static func readPrivateKey(_ pem: String) throws(CryptoError) -> PKey {
        var bytes = Array(pem.utf8)
        defer { OPENSSL_cleanse(&bytes, bytes.count) }
        guard !bytes.isEmpty, bytes.count < Int(Int32.max) else {
            throw CryptoError("private key PEM is empty or too large")
        }
        let key: OpaquePointer? = bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            // A callback that supplies no passphrase, so libcrypto never prompts on a terminal.
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let key else { throw LibCrypto.failure("cannot parse private key PEM") }
        LibCrypto.clearErrors()  // the decoder may leave entries from formats it tried first
        return PKey(adopting: key)
    }

    /// Serializes the private key as unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    static func writePrivateKey(_ key: PKey) throws(CryptoError) -> String {
        guard let bio = BIO_new(BIO_s_secmem()) else { throw LibCrypto.failure("BIO_new failed") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PrivateKey(bio, key.pointer, nil, nil, 0, nil, nil) == 1 else {
            throw LibCrypto.failure("cannot encode private key as PEM")
        }
        var bytes = LibCrypto.drain(bio)
        defer { OPENSSL_cleanse(&bytes, bytes.count) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
