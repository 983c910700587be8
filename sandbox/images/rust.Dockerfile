# Sandbox image for rust. Build context: a folder holding this file and sandbox/harness/
# (as harness/: the runner, PID 1, and the other container-side programs).
# With a registry: docker build -f rust.Dockerfile .   (BASE defaults to debian:bookworm-slim)
# Offline (this repo's default): `verifier sandbox build rust` passes BASE=<debootstrap base image>.
# g++ compiles C++ checkers (testlib). To add packages: append Debian package names and rebuild;
# the tag is a hash of this file, so the new recipe gets a new image. See README.md.
# No file or folder keeps a setuid or setgid bit (docs/sandboxes.md "Code sandboxes": the runner
# gives up root for good, and no program may take it back through one).
ARG BASE=debian:bookworm-slim
FROM ${BASE}
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      python3 rustc g++ \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb \
 && find / -xdev -perm /6000 -exec chmod ug-s {} + \
 && test -z "$(find / -xdev -perm /6000)"
COPY harness/ /opt/sandbox/harness/
USER 65534:65534
WORKDIR /work
CMD ["python3", "-I", "-u", "/opt/sandbox/harness/runner.py"]
