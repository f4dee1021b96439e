// The README's SDK examples are written next to this file, one file per ```swift block, by
// scripts/readme-snippets.sh (README-<line>.swift, not checked in). Edit the README, not them.
