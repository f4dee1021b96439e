internal import CCrypto

/// Owns one libcrypto `X509` certificate and frees it exactly once.
final class X509Certificate {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer`.
    init(adopting pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// A new, empty certificate.
    convenience init() throws(CryptoError) {
        guard let created = X509_new() else { throw LibCrypto.failure("X509_new failed") }
        self.init(adopting: created)
    }

    deinit {
        X509_free(pointer)
    }

    /// Parses the first certificate of a PEM text (RFC 7468 § 5).
    convenience init(pem: String) throws(CryptoError) {
        let bytes = Array(pem.utf8)
        guard !bytes.isEmpty, bytes.count < Int(Int32.max) else { throw CryptoError("certificate PEM is empty or too large") }
        let parsed: OpaquePointer? = bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_X509(bio, nil, nil, nil)
        }
        guard let parsed else { throw LibCrypto.failure("cannot parse certificate PEM") }
        self.init(adopting: parsed)
    }

    /// The certificate as PEM (`-----BEGIN CERTIFICATE-----`).
    func pem() throws(CryptoError) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw LibCrypto.failure("BIO_new failed") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_X509(bio, pointer) == 1 else { throw LibCrypto.failure("cannot encode certificate as PEM") }
        return String(decoding: LibCrypto.drain(bio), as: UTF8.self)
    }

    /// The serial number as uppercase hexadecimal without separators, as `openssl x509 -serial`
    /// prints it.
    var serialNumberHex: String {
        guard let number = ASN1_INTEGER_to_BN(X509_get0_serialNumber(pointer), nil) else { return "" }
        defer { BN_free(number) }
        guard let text = BN_bn2hex(number) else { return "" }
        defer { latch_openssl_free(text) }
        return String(cString: text)
    }

    /// The subject's common name (`CN`), if any.
    var commonName: String? {
        guard let name = X509_get_subject_name(pointer) else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        guard X509_NAME_get_text_by_NID(name, NID_commonName, &buffer, Int32(buffer.count)) > 0 else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Whether basicConstraints marks this a CA certificate (RFC 5280 § 4.2.1.9).
    var isCertificateAuthority: Bool {
        X509_check_ca(pointer) == 1
    }

    /// Whether `key` is the private key for this certificate's public key.
    func belongs(to key: PKey) -> Bool {
        defer { LibCrypto.clearErrors() }
        return X509_check_private_key(pointer, key.pointer) == 1
    }
}
