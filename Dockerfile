# iobench in an image that holds only the static binary and the example jobs.
#   podman build -t iobench:0.1.0 .      (or docker build)
#   podman run --rm -v /mnt/vol:/data iobench:0.1.0 --output-format=json /jobs/default.fio
# The build stage does what `make static` does on a Debian 12 machine.

# It works on the official image (deb822 sources) and on a root made by debootstrap (a
# one-line sources.list): `make static` adds the deb-src entry it needs from either.
FROM debian:bookworm AS build
RUN apt-get update -qq \
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
