#if canImport(Security)
    import Foundation
    import Security

    /// A ``CredentialStore`` in the Apple Keychain: the whole snapshot is one generic-password item
    /// (service ``service``, account ``account``, optional access group) whose data is the same JSON
    /// document ``FileCredentialStore`` writes. The item is
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: readable by background refreshes after the
    /// first unlock, never migrated to another device through backups.
    ///
    /// ``withExclusiveLock(_:)`` is **in-process only** (an async FIFO mutex): the Keychain has no
    /// cross-process lock, so an app and its extensions sharing an access group can still interleave
    /// their read-modify-write cycles. Each ``write(_:)`` is atomic (`SecItemUpdate` / `SecItemAdd`).
    ///
    /// Undecodable item data is reported through `onCorruption` and read as an empty snapshot; the
    /// next ``write(_:)`` replaces it. Keychain failures throw ``CredentialStoreError`` whose
    /// underlying error is an `NSError` in `NSOSStatusErrorDomain` with the `OSStatus` as its code.
    public final class KeychainCredentialStore: CredentialStore {
        /// The `kSecAttrService` of the item.
        public static let service = "dev.latch.credentials"
        /// The `kSecAttrAccount` of the item.
        public let account: String
        /// The `kSecAttrAccessGroup` shared with app extensions, or `nil` for the app's default group.
        public let accessGroup: String?

        private let onCorruption: @Sendable (String) -> Void
        private let mutex: CredentialStoreMutex

        /// Creates a store for the item named `account` (default `"default"`), optionally in a shared
        /// keychain access group.
        /// - Parameter onCorruption: called with a one-line description when the item's data cannot
        ///   be decoded; prints it to standard error by default.
        public init(
            account: String = "default", accessGroup: String? = nil,
            onCorruption: @escaping @Sendable (String) -> Void = FileCredentialStore.printToStandardError
        ) {
            self.account = account
            self.accessGroup = accessGroup
            self.onCorruption = onCorruption
            // One lock per Keychain item for the whole process: every client on the item shares it.
            mutex = CredentialStoreMutex.shared(named: "\(Self.service)|\(account)|\(accessGroup ?? "")")
        }

        /// The stored snapshot; empty when there is no item (`errSecItemNotFound`) or its data is corrupt.
        /// - Throws: ``CredentialStoreError`` for any other `OSStatus`.
        public func read() async throws -> CredentialSnapshot {
            var query = itemQuery()
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return CredentialSnapshot() }
            guard status == errSecSuccess else { throw Self.failure("cannot read the keychain item", status) }
            guard let data = result as? Data else {
                throw Self.failure("the keychain item has no data", errSecInternalError)
            }
            do {
                return try CredentialSnapshotCoding.decode(data)
            } catch let problem as CredentialStoreError {
                onCorruption("latch: keychain item \(Self.service)/\(account) is unusable (\(problem.message)); starting empty")
                return CredentialSnapshot()
            }
        }

        /// Replaces the item's data with `snapshot` (updating the item, or adding it if missing).
        /// - Throws: ``CredentialStoreError`` with the failing `OSStatus`.
        public func write(_ snapshot: CredentialSnapshot) async throws {
            let data = try CredentialSnapshotCoding.encode(snapshot)
            let attributes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            var status = SecItemUpdate(itemQuery() as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                let item = itemQuery().merging(attributes) { _, new in new }
                status = SecItemAdd(item as CFDictionary, nil)
                if status == errSecDuplicateItem {  // Added concurrently: update that one.
                    status = SecItemUpdate(itemQuery() as CFDictionary, attributes as CFDictionary)
                }
            }
            guard status == errSecSuccess else { throw Self.failure("cannot write the keychain item", status) }
        }

        /// Runs `body` holding this store's in-process FIFO mutex (not shared with other processes or
        /// other instances); released on every path.
        /// - Throws: `CancellationError` if the task is cancelled while waiting, or what `body` throws.
        public func withExclusiveLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
            try await mutex.withLock(body)
        }

        private func itemQuery() -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: Self.service,
                kSecAttrAccount as String: account,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            return query
        }

        private static func failure(_ message: String, _ status: OSStatus) -> CredentialStoreError {
            var userInfo: [String: Any] = [:]
            if let text = SecCopyErrorMessageString(status, nil) { userInfo[NSLocalizedDescriptionKey] = text as String }
            return CredentialStoreError(
                message, underlyingError: NSError(domain: NSOSStatusErrorDomain, code: Int(status), userInfo: userInfo))
        }
    }
#endif
