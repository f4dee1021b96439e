#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Creates database files readable by their owner only.
///
/// SQLite creates the `-wal` and `-shm` files with the permissions of the main
/// database file (https://sqlite.org/tempfiles.html, https://sqlite.org/walformat.html),
/// so creating the main file with mode 0600 first keeps all three private.
enum PrivateFile {
    /// Creates an empty file at `path` with mode 0600 if none exists; an existing file is left as is.
    static func createIfMissing(_ path: String) throws(SQLiteError) {
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            _ = close(fd)
            return
        }
        let code = errno
        guard code == EEXIST else {
            // SQLITE_CANTOPEN (https://sqlite.org/rescode.html#cantopen)
            throw SQLiteError(extendedCode: 14, message: "cannot create database file: \(String(cString: strerror(code)))")
        }
    }
}
