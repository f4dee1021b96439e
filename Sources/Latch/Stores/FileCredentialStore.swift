import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``CredentialStore`` backed by one JSON file, for Linux (it is plain POSIX, so it also builds
/// and works on Apple platforms).
///
/// - **Location**: ``defaultPath(environment:)`` follows the XDG Base Directory Specification:
///   `$XDG_DATA_HOME/latch/credentials.json`, or `$HOME/.local/share/latch/credentials.json` when
///   `XDG_DATA_HOME` is unset, empty or relative. Missing directories are created with mode 0700,
///   as the specification asks.
/// - **Permissions**: the file is 0600 and must be owned by the effective user; looser permission
///   bits are removed when the file is opened, and a file owned by someone else is refused.
/// - **Atomic replace**: ``write(_:)`` writes a 0600 temporary file in the same directory,
///   `fsync(2)`s it, `rename(2)`s it over the target and `fsync(2)`s the directory. POSIX
///   `rename(2)` replaces the name atomically, so a concurrent reader (in any process) opens either
///   the complete old file or the complete new one, and a crash leaves one of the two.
/// - **Locking**: ``withExclusiveLock(_:)`` holds an `flock(2)` `LOCK_EX` advisory lock on the
///   sibling file `credentials.json.lock` for the whole body, so cooperating processes (several
///   CLI invocations, a daemon) never run their read-modify-write cycles at the same time. `flock`
///   locks belong to an open file description, so the store also serializes the tasks of its own
///   process with an async FIFO mutex. The lock file is never deleted (deleting it would let two
///   processes lock different inodes).
/// - **Corruption**: a file that is not JSON, has the wrong shape or an unknown version never
///   crashes the app: ``read()`` moves it aside to `credentials.json.corrupt-<unix time>`, reports
///   it through `onCorruption` and returns an empty snapshot.
///
/// ``read()`` and ``write(_:)`` do not take the lock themselves; call them inside
/// ``withExclusiveLock(_:)`` for a read-modify-write. They do short blocking file I/O on the
/// calling thread. Every failure throws ``CredentialStoreError`` whose `underlyingError` is a
/// `POSIXError` with the `errno`.
public final class FileCredentialStore: CredentialStore {
    /// Absolute path of the credentials file.
    public let path: String
    /// Absolute path of the directory holding the file, its lock file and temporary files.
    public let directoryPath: String
    /// Absolute path of the advisory lock file: ``path`` + `.lock`.
    public var lockPath: String { path + ".lock" }

    private let onCorruption: @Sendable (String) -> Void
    private let tightensExistingDirectory: Bool
    private let mutex = CredentialStoreMutex()

    /// A store at ``defaultPath(environment:)`` for the current process environment. Its directory
    /// (`…/latch`) belongs to the SDK, so an existing one is also checked for ownership and
    /// tightened to 0700.
    /// - Parameter onCorruption: called with a one-line description (no secrets) each time a
    ///   corrupt file is moved aside; prints it to standard error by default.
    public convenience init(onCorruption: @escaping @Sendable (String) -> Void = FileCredentialStore.printToStandardError) {
        self.init(
            resolvedPath: Self.defaultPath(), onCorruption: onCorruption, tightensExistingDirectory: true)
    }

    /// A store at a custom `path` (relative paths are resolved against the current directory now).
    /// Missing directories are created 0700; an existing directory is used as it is.
    /// - Parameter onCorruption: called with a one-line description (no secrets) each time a
    ///   corrupt file is moved aside; prints it to standard error by default.
    public convenience init(
        path: String, onCorruption: @escaping @Sendable (String) -> Void = FileCredentialStore.printToStandardError
    ) {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        self.init(resolvedPath: absolute, onCorruption: onCorruption, tightensExistingDirectory: false)
    }

    private init(resolvedPath: String, onCorruption: @escaping @Sendable (String) -> Void, tightensExistingDirectory: Bool) {
        path = resolvedPath
        directoryPath = CredentialFileSystem.parentDirectory(of: resolvedPath)
        self.onCorruption = onCorruption
        self.tightensExistingDirectory = tightensExistingDirectory
    }

    /// The default file location under the XDG Base Directory Specification: `$XDG_DATA_HOME/latch/credentials.json`
    /// when `XDG_DATA_HOME` is set to an absolute path, else `$HOME/.local/share/latch/credentials.json`
    /// (the specification says to ignore empty or relative values).
    /// - Parameter environment: the variables to consult; the process environment by default.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            var home = environment["HOME"] ?? ""
            if !home.hasPrefix("/") { home = NSHomeDirectory() }
            dataHome = (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.local/share"
        }
        return (dataHome.hasSuffix("/") ? String(dataHome.dropLast()) : dataHome) + "/latch/credentials.json"
    }

    /// The default corruption reporter: writes `message` and a newline to standard error.
    public static func printToStandardError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// The stored snapshot: empty when the file (or its directory) does not exist, and empty after
    /// moving a corrupt file aside (see the type's documentation).
    /// - Throws: ``CredentialStoreError`` when the file cannot be opened or read (e.g. `EACCES`,
    ///   `ENOTDIR`), is a symbolic link (`ELOOP`) or not a regular file, or is owned by another user.
    public func read() async throws -> CredentialSnapshot {
        try readSynchronously()
    }

    /// Atomically replaces the file with `snapshot` (temporary file, `fsync(2)`, `rename(2)`,
    /// directory `fsync(2)`), creating the directory (0700) if needed. The file is 0600.
    /// - Throws: ``CredentialStoreError``; the previous file is then left untouched.
    public func write(_ snapshot: CredentialSnapshot) async throws {
        try writeSynchronously(snapshot)
    }

    /// Runs `body` holding this store's in-process mutex and then the cross-process `flock(2)`
    /// lock on ``lockPath``. The file lock is polled with `LOCK_NB` and a 1→50 ms backoff, so no
    /// thread is blocked while waiting. Both are released on every path: return, throw,
    /// cancellation. The lock is advisory: only processes that use it are excluded. It is not
    /// reentrant: calling ``withExclusiveLock(_:)`` again inside `body` deadlocks.
    /// - Throws: ``CredentialStoreError`` when the lock file cannot be created or locked,
    ///   `CancellationError` if the task is cancelled while waiting, or what `body` throws.
    public func withExclusiveLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await mutex.lock()
        defer { mutex.unlock() }
        let fd = try await acquireFileLock()
        defer { CredentialFileSystem.unlockAndClose(fd) }
        return try await body()
    }

    /// The file's identity and modification time (`lstat(2)`: device, inode, modification time in
    /// nanoseconds, size), or `"absent"`. Every ``write(_:)`` renames a new file into place, so any
    /// write, by any process, changes it. Cheap: no read, no lock.
    /// - Throws: ``CredentialStoreError`` when the file cannot be examined (e.g. `EACCES`).
    public func revision() async throws -> CredentialStoreRevision? {
        guard let info = try CredentialFileSystem.status(atPath: path) else { return CredentialStoreRevision("absent") }
        #if canImport(Darwin)
            let modified = info.st_mtimespec
        #else
            let modified = info.st_mtim
        #endif
        return CredentialStoreRevision("\(info.st_dev):\(info.st_ino):\(modified.tv_sec).\(modified.tv_nsec):\(info.st_size)")
    }

    // MARK: - Reading

    private func readSynchronously(attempt: Int = 1) throws -> CredentialSnapshot {
        guard
            let fd = try CredentialFileSystem.open(
                path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, missingIsNil: true)
        else { return CredentialSnapshot() }
        defer { CredentialFileSystem.close(fd) }
        try CredentialFileSystem.secureFile(fd, path, mode: 0o600)
        let data = try CredentialFileSystem.readAll(fd, path)
        do {
            return try CredentialSnapshotCoding.decode(data)
        } catch let problem as CredentialStoreError {
            // Only move aside the file we read: if a writer replaced it meanwhile, read the new one.
            let opened = try CredentialFileSystem.status(of: fd, path)
            guard let current = try CredentialFileSystem.status(atPath: path) else { return CredentialSnapshot() }
            if (current.st_dev, current.st_ino) != (opened.st_dev, opened.st_ino) && attempt < 3 {
                return try readSynchronously(attempt: attempt + 1)
            }
            try quarantine(reason: problem.message)
            return CredentialSnapshot()
        }
    }

    private func quarantine(reason: String) throws {
        let base = "\(path).corrupt-\(Int(time(nil)))"
        var destination = base
        var suffix = 1
        while try CredentialFileSystem.status(atPath: destination) != nil {
            suffix += 1
            destination = "\(base)-\(suffix)"
        }
        do {
            try CredentialFileSystem.rename(path, to: destination)
        } catch let error as CredentialStoreError
            where (error.underlyingError as? POSIXError)?.code == .ENOENT
        {
            return  // Another reader moved it aside first.
        }
        onCorruption("latch: credential file \(path) is unusable (\(reason)); moved it to \(destination) and started empty")
    }

    // MARK: - Writing

    private func prepareDirectory() throws {
        try CredentialFileSystem.makeDirectories(directoryPath, mode: 0o700)
        guard tightensExistingDirectory, let info = try CredentialFileSystem.status(atPath: directoryPath) else { return }
        guard info.st_uid == geteuid() else {
            throw CredentialStoreError(
                "refusing \(directoryPath): owned by uid \(info.st_uid), not \(geteuid())",
                underlyingError: CredentialFileSystem.posixError(EPERM))
        }
        if info.st_mode & 0o077 != 0 && chmod(directoryPath, 0o700) != 0 {
            throw CredentialFileSystem.failure("chmod", directoryPath)
        }
    }

    private func writeSynchronously(_ snapshot: CredentialSnapshot) throws {
        let data = try CredentialSnapshotCoding.encode(snapshot)
        try prepareDirectory()
        let temporary = "\(path).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        guard
            let fd = try CredentialFileSystem.open(
                temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode: 0o600)
        else { throw CredentialFileSystem.failure("create", temporary, code: ENOENT) }
        var committed = false
        defer { if !committed { CredentialFileSystem.removeQuietly(temporary) } }
        do {
            guard fchmod(fd, 0o600) == 0 else { throw CredentialFileSystem.failure("chmod", temporary) }
            try CredentialFileSystem.writeAll(fd, data, temporary)
            try CredentialFileSystem.sync(fd, temporary)
        } catch {
            CredentialFileSystem.close(fd)
            throw error
        }
        try CredentialFileSystem.closeChecked(fd, temporary)
        try CredentialFileSystem.rename(temporary, to: path)
        committed = true
        try CredentialFileSystem.syncDirectory(directoryPath)
    }

    // MARK: - Locking

    private func acquireFileLock() async throws -> Int32 {
        try prepareDirectory()
        guard
            let fd = try CredentialFileSystem.open(
                lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, mode: 0o600)
        else { throw CredentialFileSystem.failure("create", lockPath, code: ENOENT) }
        do {
            try CredentialFileSystem.secureFile(fd, lockPath, mode: 0o600)
            var delay: UInt64 = 1_000_000
            while try !CredentialFileSystem.tryLockExclusive(fd, lockPath) {
                try await Task.sleep(nanoseconds: delay)
                delay = min(delay * 2, 50_000_000)
            }
            return fd
        } catch {
            CredentialFileSystem.close(fd)
            throw error
        }
    }
}
