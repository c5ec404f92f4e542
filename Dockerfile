# The release's container image, built by goreleaser (dockers_v2 in
# .goreleaser.yaml) from the release binaries of each platform: a static
# base with no shell and no package manager, a non-root user, chainrun as
# the entrypoint and chainrun-otel beside it (chainrun finds it there).
#   docker run --rm -v "$PWD:/work" ghcr.io/chainrun/chainrun run deploy
FROM gcr.io/distroless/static-debian12:nonroot
ARG TARGETPLATFORM
COPY $TARGETPLATFORM/chainrun $TARGETPLATFORM/chainrun-otel /usr/local/bin/
USER 65532:65532
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/chainrun"]
