#!/usr/bin/env bash
# A Docker Swarm of N nested Docker nodes for the multi-node test, never touching the host engine's
# own swarm state: N containers of the node image (scripts/provision-dind-node.sh) on a bridge
# network of their own, images loaded into each (no registry), a swarm formed inside them. The
# manager's engine is published on 127.0.0.1 only. Everything carries the label
# dev.perf-gate.dind=NAME, and `down NAME` removes exactly that.
#   scripts/dind-swarm.sh up NAME N "image1 image2"   prints DOCKER_HOST=tcp://127.0.0.1:PORT
#   scripts/dind-swarm.sh down NAME
# `--privileged` fails where the host withholds a capability (CAP_SYS_RESOURCE: "unable to apply
# caps: operation not permitted"), so nodes run with every capability but that one and unconfined
# seccomp and AppArmor; the entrypoint remounts /sys and the cgroups read-write.
set -euo pipefail
cmd=${1:?up or down}; NAME=${2:?a name}
LABEL="dev.perf-gate.dind=$NAME"
NODE_IMAGE=${NODE_IMAGE:-perf-gate/dind-node:local}
if [ "$cmd" = down ]; then
  for c in $(docker ps -aq --filter "label=$LABEL"); do docker rm -f -v "$c" >/dev/null; done
  for n in $(docker network ls -q --filter "label=$LABEL"); do docker network rm "$n" >/dev/null; done
  exit 0
fi
N=${3:?node count}; IMAGES=${4:-}
FLAGS=(--cap-add ALL --cap-drop SYS_RESOURCE
  --security-opt seccomp=unconfined --security-opt apparmor=unconfined
  --security-opt systempaths=unconfined --device-cgroup-rule 'a *:* rwm'
  --tmpfs /var/lib/docker:rw,exec,dev,suid --label "$LABEL")
docker network create --label "$LABEL" "$NAME" >/dev/null
for i in $(seq 1 "$N"); do
  extra=()
  [ "$i" = 1 ] && extra=(-p 127.0.0.1::2375)
  docker run -d --name "$NAME-node$i" --hostname "$NAME-node$i" --network "$NAME" "${FLAGS[@]}" "${extra[@]}" \
    "$NODE_IMAGE" --host=unix:///var/run/docker.sock ${extra:+--host=tcp://0.0.0.0:2375} >/dev/null
done
for i in $(seq 1 "$N"); do
  for _ in $(seq 1 120); do docker exec "$NAME-node$i" docker info >/dev/null 2>&1 && break; sleep 0.5; done
  docker exec "$NAME-node$i" docker info >/dev/null
done
for img in $IMAGES; do
  for i in $(seq 1 "$N"); do docker save "$img" | docker exec -i "$NAME-node$i" docker load -q >/dev/null; done
done
IP1=$(docker inspect -f "{{(index .NetworkSettings.Networks \"$NAME\").IPAddress}}" "$NAME-node1")
docker exec "$NAME-node1" docker swarm init --advertise-addr "$IP1" >/dev/null
TOKEN=$(docker exec "$NAME-node1" docker swarm join-token -q worker)
for i in $(seq 2 "$N"); do
  docker exec "$NAME-node$i" docker swarm join --token "$TOKEN" "$IP1:2377" >/dev/null
done
PORT=$(docker port "$NAME-node1" 2375/tcp | head -1 | sed 's/.*://')
echo "DOCKER_HOST=tcp://127.0.0.1:$PORT"
