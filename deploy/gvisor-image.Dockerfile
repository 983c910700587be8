# The server image plus what the gVisor backend needs (README "Deploy", deploy/k8s): the sandboxes'
# root filesystems at /opt/rootfs and runsc. Context: a folder holding rootfs/ (made by
# `verifier sandbox build --rootfs`) and runsc; deploy/build_gvisor_image.sh prepares it.
ARG SERVER=grpo-verifier:dev
FROM ${SERVER}
COPY --chown=0:0 runsc /usr/local/bin/runsc
COPY --chown=0:0 rootfs/ /opt/rootfs/
ENV VERIFIER_SANDBOX_BACKEND=gvisor \
    VERIFIER_SANDBOX_ROOTFS_DIR=/opt/rootfs
