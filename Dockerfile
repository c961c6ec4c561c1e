# The ipreuse KRM function as a container image: a static binary on an empty base, run as
# `nobody` (65534). The image is what `kpt fn eval --image`, a Kptfile `image:` step and a
# kustomize container function run.
#
# Build it (Docker or Podman, where `rust:` images can be pulled), VERSION being the crate's
# and REVISION the commit it is built from (labels `org.opencontainers.image.version` and
# `.revision`; without REVISION the revision label says `unknown`):
#
#   VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
#   docker build --build-arg VERSION="$VERSION" --build-arg REVISION="$(git rev-parse HEAD)" \
#       -t localhost/ipreuse:"$VERSION" .
#
# Or from a static binary built on the host, without the Rust builder stage: the named
# context `builder` takes the place of the stage of that name (Docker BuildKit and Podman
# both let a `--build-context` override a stage); it must hold the binary as `ipreuse`.
#
#   RUSTFLAGS='-C target-feature=+crt-static' cargo build --locked --profile image \
#       --target x86_64-unknown-linux-gnu
#   podman build --build-context builder=target/x86_64-unknown-linux-gnu/image \
#       --build-arg VERSION="$VERSION" --build-arg REVISION="$(git rev-parse HEAD)" \
#       -t localhost/ipreuse:"$VERSION" .
#
# Either way the image stage runs the binary it got, and the build fails unless it is version
# VERSION: the version label is the version `ipreuse --version` prints.
#
# tests/it/image.rs builds it the second way and runs it with kpt, tests/it/kustomize.rs with kustomize.

ARG RUST_VERSION=1.95

# The static binary, at /ipreuse. glibc linked statically (crt-static) needs an explicit
# --target, else the flag would also reach the build scripts and proc macros.
FROM docker.io/library/rust:${RUST_VERSION}-bookworm AS builder
ARG VERSION
WORKDIR /src
COPY . .
# Refused before the long build too: a missing VERSION, or one that is not Cargo.toml's.
RUN test -n "$VERSION" || { echo "--build-arg VERSION=... is required" >&2; exit 1; }; \
    crate="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)"; \
    test "$VERSION" = "$crate" || { echo "VERSION=$VERSION but Cargo.toml says $crate" >&2; exit 1; }
RUN RUSTFLAGS='-C target-feature=+crt-static' cargo build --locked --profile image \
        --target x86_64-unknown-linux-gnu \
    && cp target/x86_64-unknown-linux-gnu/image/ipreuse /ipreuse \
    && /ipreuse --version

# The image: the binary and an /etc/passwd that names `nobody` (kpt and kustomize run
# functions with `--user nobody`, which the runtime looks up in the image).
FROM scratch AS image
ARG VERSION
ARG REVISION=unknown
COPY image/passwd /etc/passwd
COPY --from=builder /ipreuse /usr/local/bin/ipreuse
# On both paths (the builder stage, or a `--build-context builder=`), the binary must be
# version VERSION, so that the version label is the version it prints. There is no shell here:
# the binary compares (`ipreuse --version` exits 1 when IPREUSE_EXPECT_VERSION is set and is not
# its version; a missing VERSION is an empty one). An ARG, so it is in RUN's environment only,
# not in the image's. The RUN also keeps the labels below true under Podman's layer cache: its
# cache key holds the build arguments, a LABEL's holds only the unexpanded text.
ARG IPREUSE_EXPECT_VERSION="${VERSION}"
RUN ["/usr/local/bin/ipreuse", "--version"]
LABEL org.opencontainers.image.title="ipreuse" \
      org.opencontainers.image.description="KRM function: stable Metal3 IPPool preAllocations for BMH-name-based IP reuse" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="Apache-2.0"
USER 65534:65534
ENTRYPOINT ["/usr/local/bin/ipreuse"]
