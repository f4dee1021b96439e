#!/usr/bin/env bash
# check-platforms.sh - fail when a Swift file uses a module newer than the platforms Package.swift
# declares (macOS 14, iOS 17). Linux builds cannot catch this: availability is only checked when
# compiling for Apple platforms. `Synchronization` (Mutex, Atomic) needs macOS 15 / iOS 18; use
# `LatchLocking.Locked` instead.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if found="$(grep -rnE '^\s*((internal|public|package|@preconcurrency)\s+)*import\s+Synchronization\b' \
    --include='*.swift' Sources Tests Benchmarks Examples 2>/dev/null)"; then
    echo "check-platforms: Synchronization needs macOS 15 / iOS 18, newer than the package declares; use LatchLocking.Locked:" >&2
    echo "$found" >&2
    exit 1
fi
echo "check-platforms: no module newer than macOS 14 / iOS 17 is imported"
