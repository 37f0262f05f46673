# iobench in an image that holds only the static binary and the example jobs.
#   docker build -t iobench .
#   docker run --rm -v /mnt/vol:/data iobench --output-format=json /jobs/default.fio
# The build stage does what `make static` does on a Debian 12 machine.

FROM debian:bookworm AS build
RUN sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
        > /etc/apt/sources.list.d/deb-src.sources \
 && apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        build-essential pkg-config file ca-certificates dpkg-dev nasm \
        libaio-dev liburing-dev libcjson-dev libcmocka-dev libisal-dev libxxhash-dev libssl-dev zlib1g-dev
WORKDIR /src
COPY . .
RUN make clean && make static \
 && mkdir -p /out/data /out/jobs \
 && cp iobench-static /out/iobench \
 && cp jobs/*.fio deploy/job-seq-read.fio /out/jobs/

# No shell, no libraries: the binary is static.
FROM scratch
COPY --from=build /out/iobench /bin/iobench
COPY --from=build /out/jobs/ /jobs/
COPY --from=build --chown=65532:65532 /out/data/ /data/
USER 65532:65532
WORKDIR /data
ENTRYPOINT ["/bin/iobench"]
CMD ["/jobs/default.fio"]
