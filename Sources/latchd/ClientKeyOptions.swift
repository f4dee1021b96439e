import Foundation
import LatchCrypto
import LatchServer

/// The `--jwks FILE` option of `client create` and `client set-jwks`: the public keys a
/// `private_key_jwt` client signs its assertions with (OpenID Connect Core § 9, RFC 7523 § 2.2).
enum ClientKeyOptions {
    /// The text of `--jwks FILE`, checked to be a JWKS document of RS256 / ES256 public keys
    /// (``ClientKeySet``) before the data directory is opened; `nil` when the option is absent.
    /// - Throws: ``UsageError`` for an unreadable file or an unusable document.
    static func jwks(_ arguments: Arguments) throws -> String? {
        guard let path = arguments.value("jwks") else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("option '--jwks': cannot read '\(path)'")
        }
        let text = String(decoding: data, as: UTF8.self)
        guard (try? ClientKeySet(text)) != nil else {
            throw UsageError(
                "option '--jwks': '\(path)' is not a JWKS document ({\"keys\":[...]}) of RS256 (RSA, 2048 bits or "
                    + "more) or ES256 (EC P-256) public signing keys, each with a unique kid (one key may have none)")
        }
        return text
    }

    /// A summary of the keys of `jwks` for the command's output: how many, and their algorithms.
    static func describe(_ jwks: String) -> String {
        let keys = (try? ClientKeySet(jwks))?.keys ?? []
        let algorithms = Set(keys.map(\.key.algorithm.rawValue)).sorted().joined(separator: ", ")
        return "authenticates with private_key_jwt: \(keys.count) key(s) (\(algorithms))"
    }
}
