import Foundation

/// The stored document format shared by ``FileCredentialStore`` and ``KeychainCredentialStore``:
/// UTF-8 JSON with sorted keys, dates as Foundation's default (seconds since 2001-01-01 as a
/// `Double`, which round-trips exactly), and `version` equal to ``supportedVersion``.
enum CredentialSnapshotCoding {
    /// The only document version this SDK reads and writes.
    static let supportedVersion = 1

    /// Serializes `snapshot`.
    /// - Throws: ``CredentialStoreError`` when the version is unsupported or encoding fails.
    static func encode(_ snapshot: CredentialSnapshot) throws -> Data {
        guard snapshot.version == supportedVersion else {
            throw CredentialStoreError("cannot store credential snapshot version \(snapshot.version)")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            var data = try encoder.encode(snapshot)
            data.append(0x0A)
            return data
        } catch {
            throw CredentialStoreError("cannot encode credential snapshot", underlyingError: error)
        }
    }

    /// Parses a stored document.
    /// - Throws: ``CredentialStoreError`` whose message says why the document is unusable (not
    ///   JSON, unexpected shape, unsupported version) without quoting its content.
    static func decode(_ data: Data) throws -> CredentialSnapshot {
        do {
            _ = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw CredentialStoreError("not valid JSON", underlyingError: error)
        }
        let snapshot: CredentialSnapshot
        do {
            snapshot = try JSONDecoder().decode(CredentialSnapshot.self, from: data)
        } catch {
            throw CredentialStoreError("not a credential snapshot", underlyingError: error)
        }
        guard snapshot.version == supportedVersion else {
            throw CredentialStoreError("unsupported version \(snapshot.version)")
        }
        return snapshot
    }
}
