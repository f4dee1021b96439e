internal import CCrypto
import Foundation

/// Fills in an X.509 v3 certificate (RFC 5280 § 4.1) field by field and signs it with
/// ECDSA-SHA256 or RSA-SHA256, depending on the issuer's key.
struct CertificateBuilder {
    let certificate: X509Certificate

    init() throws(CryptoError) {
        certificate = try X509Certificate()
        guard X509_set_version(certificate.pointer, Int(X509_VERSION_3)) == 1 else {
            throw LibCrypto.failure("cannot set certificate version 3")
        }
    }

    /// A random positive 128-bit serial number (the top bit set, so it is always 16 bytes;
    /// RFC 5280 § 4.1.2.2 allows up to 20 octets; CA/Browser Forum BR § 7.1 asks for 64 random bits).
    func setRandomSerialNumber() throws(CryptoError) {
        var bytes = SecureRandom.bytes(count: 16)
        bytes[0] |= 0x80
        guard let number = BN_bin2bn(bytes, Int32(bytes.count), nil) else { throw LibCrypto.failure("BN_bin2bn failed") }
        defer { BN_free(number) }
        guard let serial = BN_to_ASN1_INTEGER(number, nil) else { throw LibCrypto.failure("BN_to_ASN1_INTEGER failed") }
        defer { ASN1_INTEGER_free(serial) }
        guard X509_set_serialNumber(certificate.pointer, serial) == 1 else { throw LibCrypto.failure("cannot set serial") }
    }

    /// Valid from an hour before `now` (for clocks slightly behind) for exactly `days` days.
    func setValidity(from now: Date, days: Int) throws(CryptoError) {
        let start = time_t(now.timeIntervalSince1970)
        guard ASN1_TIME_adj(X509_getm_notBefore(certificate.pointer), start, 0, -3600) != nil,
            ASN1_TIME_adj(X509_getm_notAfter(certificate.pointer), start, Int32(days), -3600) != nil
        else { throw LibCrypto.failure("cannot set the validity period") }
    }

    /// Sets the subject to `O=organization, CN=commonName` (UTF-8), and the issuer to the same
    /// name when `issuer` is `nil` (self-signed) or to `issuer`'s subject.
    func setNames(commonName: String, organization: String, issuer: X509Certificate?) throws(CryptoError) {
        guard let name = X509_NAME_new() else { throw LibCrypto.failure("X509_NAME_new failed") }
        defer { X509_NAME_free(name) }
        for (nid, value) in [(NID_organizationName, organization), (NID_commonName, commonName)] {
            let bytes = Array(value.utf8)
            guard X509_NAME_add_entry_by_NID(name, nid, MBSTRING_UTF8, bytes, Int32(bytes.count), -1, 0) == 1 else {
                throw LibCrypto.failure("cannot add a name entry")
            }
        }
        guard X509_set_subject_name(certificate.pointer, name) == 1 else { throw LibCrypto.failure("cannot set subject") }
        let issuerName = issuer.map { X509_get_subject_name($0.pointer) } ?? name
        guard X509_set_issuer_name(certificate.pointer, issuerName) == 1 else { throw LibCrypto.failure("cannot set issuer") }
    }

    func setPublicKey(_ key: PKey) throws(CryptoError) {
        guard X509_set_pubkey(certificate.pointer, key.pointer) == 1 else { throw LibCrypto.failure("cannot set public key") }
    }

    /// Adds an extension written in OpenSSL's configuration syntax (`x509v3_config(5)`), e.g.
    /// `critical,CA:TRUE`. `issuer` (`nil`: self-signed) is what `keyid:always` refers to; the
    /// public key must be set before `hash` is used for the subject key identifier.
    func addExtension(_ nid: Int32, _ value: StaticString, issuer: X509Certificate?) throws(CryptoError) {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, (issuer ?? certificate).pointer, certificate.pointer, nil, nil, 0)
        guard let extensionValue = X509V3_EXT_nconf_nid(nil, &context, nid, value.cString) else {
            throw LibCrypto.failure("cannot build extension \(value)")
        }
        defer { X509_EXTENSION_free(extensionValue) }
        guard X509_add_ext(certificate.pointer, extensionValue, -1) == 1 else {
            throw LibCrypto.failure("cannot add extension \(value)")
        }
    }

    /// Adds subjectAltName (RFC 5280 § 4.2.1.6) with DNS names and IP addresses. DNS names must
    /// already be validated ASCII (A-labels); addresses are parsed as IPv4 or IPv6 text.
    func addSubjectAlternativeNames(dnsNames: [String], ipAddresses: [String]) throws(CryptoError) {
        guard let names = latch_general_names_new() else { throw LibCrypto.failure("cannot allocate GENERAL_NAMES") }
        defer { GENERAL_NAMES_free(names) }  // frees the names pushed into it too
        for dnsName in dnsNames {
            guard let text = ASN1_IA5STRING_new() else { throw LibCrypto.failure("ASN1_IA5STRING_new failed") }
            let bytes = Array(dnsName.utf8)
            guard ASN1_STRING_set(text, bytes, Int32(bytes.count)) == 1 else {
                ASN1_IA5STRING_free(text)
                throw LibCrypto.failure("ASN1_STRING_set failed")
            }
            try push(text, type: GEN_DNS, into: names)
        }
        for address in ipAddresses {
            guard let octets = a2i_IPADDRESS(address) else {
                LibCrypto.clearErrors()
                throw CryptoError("'\(address.prefix(64))' is not an IPv4 or IPv6 address")
            }
            try push(octets, type: GEN_IPADD, into: names)
        }
        guard
            X509_add1_ext_i2d(
                certificate.pointer, NID_subject_alt_name, UnsafeMutableRawPointer(names), 0, UInt(X509V3_ADD_DEFAULT)) == 1
        else { throw LibCrypto.failure("cannot add subjectAltName") }
    }

    /// Wraps `value` (an `ASN1_STRING` the call takes ownership of) in a GENERAL_NAME in `names`.
    private func push(_ value: UnsafeMutablePointer<ASN1_STRING>, type: Int32, into names: OpaquePointer) throws(CryptoError) {
        guard let name = GENERAL_NAME_new() else {
            ASN1_STRING_free(value)
            throw LibCrypto.failure("GENERAL_NAME_new failed")
        }
        GENERAL_NAME_set0_value(name, type, UnsafeMutableRawPointer(value))
        guard latch_general_names_push(names, name) > 0 else {
            GENERAL_NAME_free(name)
            throw LibCrypto.failure("cannot add a subjectAltName entry")
        }
    }

    /// Signs with SHA-256 and returns the finished certificate.
    func sign(with key: PKey) throws(CryptoError) -> X509Certificate {
        guard X509_sign(certificate.pointer, key.pointer, EVP_sha256()) > 0 else {
            throw LibCrypto.failure("cannot sign the certificate")
        }
        return certificate
    }
}
