#!/bin/sh
# perf-gate dind node entrypoint: minimal prep, then exec dockerd as the container's main process.
set -e
# The host sandbox's capability bounding set lacks CAP_SYS_RESOURCE, so `docker run --privileged`
# fails ("unable to apply caps: operation not permitted"). Nodes therefore run unprivileged with
# --cap-add ALL --cap-drop SYS_RESOURCE ..., where runc mounts /sys and the cgroup v1 hierarchies
# read-only: remount them rw (we hold CAP_SYS_ADMIN and there is no user namespace).
mount -o remount,rw /sys 2>/dev/null || echo "dind-entry: remount /sys rw failed" >&2
for d in /sys/fs/cgroup /sys/fs/cgroup/*; do
  mountpoint -q "$d" || continue
  mount -o remount,bind,rw "$d" 2>/dev/null || mount -o remount,rw "$d" 2>/dev/null \
    || echo "dind-entry: remount $d rw failed" >&2
done
# shared mount propagation (as docker's official dind script does); harmless if it fails
mount --make-rshared / 2>/dev/null || true
rm -f /var/run/docker.pid /run/docker/containerd/containerd.pid 2>/dev/null || true
exec dockerd "$@"
