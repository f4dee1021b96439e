import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The POSIX primitives behind ``FileCredentialStore``. Every failure is a ``CredentialStoreError``
/// naming the operation and path, whose underlying error is a `POSIXError` carrying `errno`.
/// `EINTR` is retried everywhere.
enum CredentialFileSystem {
    /// The `errno` value as an `Error` (a `POSIXError`, or an `NSError` in `NSPOSIXErrorDomain`
    /// for codes `POSIXErrorCode` does not know).
    static func posixError(_ code: Int32) -> any Error {
        if let known = POSIXErrorCode(rawValue: code) { return POSIXError(known) }
        return NSError(domain: NSPOSIXErrorDomain, code: Int(code))
    }

    /// A store error for a failed system call, capturing `code` (default: the current `errno`).
    static func failure(_ operation: String, _ path: String, code: Int32 = errno) -> CredentialStoreError {
        CredentialStoreError("cannot \(operation) \(path)", underlyingError: posixError(code))
    }

    /// `open(2)`; returns `nil` instead of throwing when `missingIsNil` and the path does not exist.
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0, missingIsNil: Bool = false) throws -> Int32? {
        while true {
            let fd = openFile(path, flags, mode)
            if fd >= 0 { return fd }
            let code = errno
            if code == EINTR { continue }
            if code == ENOENT && missingIsNil { return nil }
            throw failure("open", path, code: code)
        }
    }

    /// `close(2)`, ignoring errors (used on paths that already failed or only read).
    static func close(_ fd: Int32) {
        _ = closeFile(fd)
    }

    /// `close(2)` after writing: a failure means data may be lost, so it throws.
    static func closeChecked(_ fd: Int32, _ path: String) throws {
        if closeFile(fd) != 0 && errno != EINTR { throw failure("close", path) }
    }

    /// `fstat(2)`.
    static func status(of fd: Int32, _ path: String) throws -> stat {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("stat", path) }
        return info
    }

    /// `lstat(2)`; `nil` when the path does not exist.
    static func status(atPath path: String) throws -> stat? {
        var info = stat()
        if lstat(path, &info) == 0 { return info }
        let code = errno
        if code == ENOENT { return nil }
        throw failure("stat", path, code: code)
    }

    /// Checks that the open file `fd` is a regular file owned by the effective user, and removes
    /// group/other permission bits if it has any (tightening to `mode`).
    /// - Throws: ``CredentialStoreError`` (underlying `EPERM`) when another user owns the file.
    static func secureFile(_ fd: Int32, _ path: String, mode: mode_t) throws {
        let info = try status(of: fd, path)
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw CredentialStoreError("\(path) is not a regular file", underlyingError: posixError(EINVAL))
        }
        guard info.st_uid == geteuid() else {
            throw CredentialStoreError(
                "refusing \(path): owned by uid \(info.st_uid), not \(geteuid())", underlyingError: posixError(EPERM))
        }
        if info.st_mode & 0o077 != 0 {
            guard fchmod(fd, mode) == 0 else { throw failure("chmod", path) }
        }
    }

    /// Creates `path` and its missing ancestors with `mode` (set explicitly, so the umask cannot
    /// loosen or lock out the owner).
    static func makeDirectories(_ path: String, mode: mode_t) throws {
        if let info = try status(atPath: path) {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw CredentialStoreError("\(path) is not a directory", underlyingError: posixError(ENOTDIR))
            }
            return
        }
        let parent = parentDirectory(of: path)
        if parent != path { try makeDirectories(parent, mode: mode) }
        if mkdir(path, mode) != 0 {
            let code = errno
            if code == EEXIST { return try makeDirectories(path, mode: mode) }
            throw failure("create directory", path, code: code)
        }
        guard chmod(path, mode) == 0 else { throw failure("chmod", path) }
    }

    /// The directory part of an absolute path (`/` for `/x`).
    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Reads `fd` to its end.
    static func readAll(_ fd: Int32, _ path: String) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { readFile(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                return data
            } else if errno != EINTR {
                throw failure("read", path)
            }
        }
    }

    /// Writes all of `data` to `fd`, continuing after short writes.
    static func writeAll(_ fd: Int32, _ data: Data, _ path: String) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let count = writeFile(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if count >= 0 {
                    offset += count
                } else if errno != EINTR {
                    throw failure("write", path)
                }
            }
        }
    }

    /// `fsync(2)`.
    static func sync(_ fd: Int32, _ path: String) throws {
        while fsync(fd) != 0 {
            if errno != EINTR { throw failure("fsync", path) }
        }
    }

    /// Flushes a directory's entries (so a completed `rename(2)` survives a crash). File systems
    /// that cannot sync directories (`EINVAL`) are tolerated.
    static func syncDirectory(_ path: String) throws {
        guard let fd = try open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) else { return }
        defer { close(fd) }
        while fsync(fd) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == EINVAL { return }
            throw failure("fsync directory", path, code: code)
        }
    }

    /// `rename(2)`: atomically replaces `destination` (POSIX guarantees other processes see either
    /// the old or the new file, never neither nor a mix).
    static func rename(_ source: String, to destination: String) throws {
        guard renameFile(source, destination) == 0 else { throw failure("rename to \(destination)", source) }
    }

    /// `flock(fd, LOCK_EX | LOCK_NB)`: `true` when taken, `false` when another open file
    /// description holds it.
    static func tryLockExclusive(_ fd: Int32, _ path: String) throws -> Bool {
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
            let code = errno
            if code == EINTR { continue }
            if code == EWOULDBLOCK || code == EAGAIN { return false }
            throw failure("lock", path, code: code)
        }
    }

    /// Releases an `flock(2)` lock and closes its descriptor (closing alone would release it too).
    static func unlockAndClose(_ fd: Int32) {
        _ = flock(fd, LOCK_UN)
        close(fd)
    }

    /// `unlink(2)`, ignoring errors (cleanup only).
    static func removeQuietly(_ path: String) {
        _ = unlink(path)
    }

    // The C functions under names that members elsewhere (`read`, `write`, `open`, `close`) cannot shadow.
    private static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Glibc)
            Glibc.open(path, flags, mode)
        #else
            Darwin.open(path, flags, mode)
        #endif
    }

    private static func closeFile(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(fd)
        #else
            Darwin.close(fd)
        #endif
    }

    private static func readFile(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.read(fd, buffer, count)
        #else
            Darwin.read(fd, buffer, count)
        #endif
    }

    private static func writeFile(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(fd, buffer, count)
        #else
            Darwin.write(fd, buffer, count)
        #endif
    }

    private static func renameFile(_ source: String, _ destination: String) -> Int32 {
        #if canImport(Glibc)
            Glibc.rename(source, destination)
        #else
            Darwin.rename(source, destination)
        #endif
    }
}
