# Sandbox image for javascript. Build context: a folder holding this file and sandbox/harness/
# (as harness/: the runner, PID 1, and the other container-side programs).
# With a registry: docker build -f javascript.Dockerfile .   (BASE defaults to debian:bookworm-slim)
# Offline (this repo's default): `verifier sandbox build javascript` passes BASE=<debootstrap base image>.
# To add packages (numpy, ...): append Debian package names to the install line and rebuild;
# the tag is a hash of this file, so the new recipe gets a new image. See README.md.
# No file or folder keeps a setuid or setgid bit (docs/sandboxes.md "Code sandboxes": the runner
# gives up root for good, and no program may take it back through one).
ARG BASE=debian:bookworm-slim
FROM ${BASE}
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      python3 nodejs \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb \
 && find / -xdev -perm /6000 -exec chmod ug-s {} + \
 && test -z "$(find / -xdev -perm /6000)"
# The program's name (docs/sandboxes.md "Code sandboxes", sandbox/harness/pid1.py write_ids): /etc/passwd and
# /etc/group link into /run/ids, whose copies name uid and gid 65534 `sandbox` (home /tmp) before Debian's
# lines. Where a backend gives the program a uid of the sandbox's own (Docker with runc), a tmpfs hides
# /run/ids and the runner writes them there at its start, naming that uid, from the copies in
# /opt/sandbox/ids. The root stays read-only.
RUN mkdir -p /run/ids /opt/sandbox/ids \
 && { echo 'sandbox:x:65534:65534:sandbox:/tmp:/bin/sh'; cat /etc/passwd; } > /opt/sandbox/ids/passwd \
 && { echo 'sandbox:x:65534:'; cat /etc/group; } > /opt/sandbox/ids/group \
 && cp /opt/sandbox/ids/passwd /opt/sandbox/ids/group /run/ids/ \
 && ln -sf /run/ids/passwd /etc/passwd && ln -sf /run/ids/group /etc/group
COPY harness/ /opt/sandbox/harness/
USER 65534:65534
WORKDIR /work
CMD ["python3", "-I", "-u", "/opt/sandbox/harness/runner.py"]
