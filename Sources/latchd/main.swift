import Foundation

// `latchd`: the server and its admin commands. The commands and their options are declared in
// CommandSpec+Catalog.swift, which the help and usage texts are made from.
exit(LatchdMain.run(Array(CommandLine.arguments.dropFirst())))
