import Foundation
import LatchChildProcess
import LatchLocking

/// Runs SQL on a database file with the `sqlite3` command-line shell, outside any ``SQLiteStore``:
/// to build databases an older server wrote, or to plant rows the store would never write.
enum SQLiteShell {
    /// Why the shell failed.
    struct Failure: Error, CustomStringConvertible {
        let status: Int32
        let output: String
        var description: String { "sqlite3 exited with \(status): \(output)" }
    }

    /// Runs `sql` (several statements allowed) on the database at `path`, stopping at the first error.
    /// - Returns: what the shell printed, in its default list mode.
    /// - Throws: ``Failure`` when a statement fails.
    @discardableResult
    static func execute(_ sql: String, on path: String) throws -> String {
        let input = Pipe()
        let output = Pipe()
        let process = try ChildProcess(
            executable: "/usr/bin/env", arguments: ["sqlite3", "-bail", "-cmd", ".timeout 5000", path],
            environment: ProcessInfo.processInfo.environment,
            standardInput: .descriptor(input.fileHandleForReading.fileDescriptor),
            standardOutput: .descriptor(output.fileHandleForWriting.fileDescriptor),
            standardError: .descriptor(output.fileHandleForWriting.fileDescriptor))
        try input.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        signal(SIGPIPE, SIG_IGN)  // a child that exits early must not take the test process with it
        try? input.fileHandleForWriting.write(contentsOf: Data(sql.utf8))
        try input.fileHandleForWriting.close()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(status: process.terminationStatus, output: printed)
        }
        return printed
    }

    /// `text` as an SQL string literal.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
