# The README's two commands are `make run` and `make test`; everything else supports them.
SWIFT ?= swift
ARGS ?= --dev

.PHONY: run test test-suites build lint format bench bench-sdk deps clean readme-examples interop browser-test smtp-test

deps:
	@scripts/install-deps.sh

## Start latchd on the embedded SQLite store (release build), with the development client.
run: deps
	$(SWIFT) build -c release --product latchd
	.build/release/latchd serve $(ARGS)

## The suites that run a second time with every server on PostgreSQL (LATCH_TEST_STORE=postgres):
## native auth, tokens and durability.
POSTGRES_SUITES = LatchServerTests\.(NativeAuth|Decoy|DeviceToken|HashingFairness|LockoutResistance|MSALCompatibility|NativeIDTokenClaims|NativeWeakPassword|SignInBurst|AccessTokenChecks|KeyRotation|RefreshToken|Revocation|TokenClaims|Userinfo|ConcurrentSignUp|CrashRecovery|DataDirectory)

## Build once (with tests) and run the whole suite beside a throwaway PostgreSQL cluster (the store
## conformance suite runs against SQLite and PostgreSQL), then the HTTP suites again with every server
## on PostgreSQL, then the README's examples.
test: deps
	$(SWIFT) build --build-tests
	scripts/with-postgres.sh $(MAKE) test-suites

test-suites:
	$(SWIFT) test --skip-build --parallel --num-workers 2
	LATCH_TEST_STORE=postgres $(SWIFT) test --skip-build --parallel --num-workers 2 --filter '$(POSTGRES_SUITES)'
	$(MAKE) interop
	$(MAKE) smtp-test
	$(MAKE) browser-test
	$(MAKE) readme-examples

## Interoperability with clients from PyPI, against the latchd the tests built (no rebuild):
## firebase-admin against `latchd serve --emulator`.
interop:
	Tests/Interop/run-firebase-admin-interop.sh .build/debug/latchd

## E-mail over SMTP against aiosmtpd servers (STARTTLS with AUTH, implicit TLS, a --dev sink) started
## by the test, against the latchd the tests built: headers, both parts, retries and dead letters.
smtp-test:
	Tests/Interop/run-smtp-tests.sh .build/debug/latchd

## The hosted pages in headless Chromium (selenium) and authlib's OAuth2Session, against the latchd the
## tests built; screenshots in .build/artifacts/browser/. Installs chromium and chromium-driver first.
browser-test:
	@scripts/install-deps.sh --browser
	Tests/Interop/run-browser-tests.sh .build/debug/latchd

## Compile the README's Swift examples, and run its test examples, in Examples/ReadmeSnippets, a
## package that depends on this one.
readme-examples:
	SWIFT=$(SWIFT) scripts/readme-snippets.sh

build: deps
	$(SWIFT) build

lint:
	scripts/check-platforms.sh
	$(SWIFT) format lint --strict --recursive --configuration .swift-format Package.swift Sources Tests Benchmarks

format:
	$(SWIFT) format format --in-place --recursive --configuration .swift-format Package.swift Sources Tests Benchmarks

## Benchmarks: wrk against a release latchd, plus the peer comparison when PEER=1;
## STORE=postgres adds the rows of one and of two latchd on a throwaway PostgreSQL (fsync on).
STORE ?= sqlite
bench:
	@scripts/install-deps.sh --bench
	$(SWIFT) build -c release --product latchd
ifeq ($(STORE),postgres)
	LATCH_PG_FSYNC=on STORE=postgres scripts/with-postgres.sh scripts/bench.sh
else
	scripts/bench.sh
endif

## SDK micro-benchmark: p50/p99 of a cache-hit acquireTokenSilent.
bench-sdk:
	$(SWIFT) build -c release --product latch-bench
	.build/release/latch-bench

clean:
	rm -rf .build
