#!/bin/bash
# Start N nested Docker nodes (perf-gate/dind-node:spike) on a user-defined bridge network of the
# host engine, load local images into each (no registry), and form a swarm INSIDE the nodes.
# The host engine's own swarm state is never touched.
# Usage: ./start-swarm.sh [N=3]    env: IMAGES="perf-gate/sut:local" NET=spike-net PREFIX=spike-node STORAGE=tmpfs|volume
#        ./start-swarm.sh --down   (remove nodes, their volumes and the network)
set -euo pipefail
N=${1:-3}; NET=${NET:-spike-net}; PREFIX=${PREFIX:-spike-node}; STORAGE=${STORAGE:-tmpfs}
IMAGE=${NODE_IMAGE:-perf-gate/dind-node:spike}; IMAGES=${IMAGES:-perf-gate/sut:local}
if [ "${1:-}" = "--down" ]; then
  for c in $(docker ps -aq --filter "name=^${PREFIX}[0-9]+$"); do docker rm -f -v "$c" >/dev/null; done
  for v in $(docker volume ls -q --filter "name=^${PREFIX}[0-9]+-lib$"); do docker volume rm "$v" >/dev/null; done
  docker network rm "$NET" >/dev/null 2>&1 || true
  exit 0
fi
# --privileged does NOT work on this host (bounding set lacks CAP_SYS_RESOURCE ->
# "unable to apply caps: operation not permitted"); this is the equivalent minus that one cap.
NODE_FLAGS=(--cap-add ALL --cap-drop SYS_RESOURCE
  --security-opt seccomp=unconfined --security-opt apparmor=unconfined
  --security-opt systempaths=unconfined --device-cgroup-rule 'a *:* rwm')
docker network inspect "$NET" >/dev/null 2>&1 || docker network create "$NET" >/dev/null
t0=$(date +%s.%N)
for i in $(seq 1 "$N"); do
  n=$PREFIX$i
  if [ "$STORAGE" = volume ]; then lib=(-v "$n-lib:/var/lib/docker"); else lib=(--tmpfs /var/lib/docker:rw,exec,dev,suid); fi
  docker run -d --name "$n" --hostname "$n" --network "$NET" "${NODE_FLAGS[@]}" "${lib[@]}" "$IMAGE" >/dev/null
done
for i in $(seq 1 "$N"); do
  until docker exec "$PREFIX$i" docker info >/dev/null 2>&1; do sleep 0.5; done
done
echo "nodes ready: $(echo "$(date +%s.%N)-$t0" | bc)s"
for img in $IMAGES; do
  for i in $(seq 1 "$N"); do docker save "$img" | docker exec -i "$PREFIX$i" docker load -q; done
done
echo "images loaded: $(echo "$(date +%s.%N)-$t0" | bc)s"
IP1=$(docker inspect -f "{{(index .NetworkSettings.Networks \"$NET\").IPAddress}}" "${PREFIX}1")
docker exec "${PREFIX}1" docker swarm init --advertise-addr "$IP1" >/dev/null
TOKEN=$(docker exec "${PREFIX}1" docker swarm join-token -q worker)
for i in $(seq 2 "$N"); do
  docker exec "$PREFIX$i" docker swarm join --token "$TOKEN" "$IP1:2377"
done
echo "swarm formed: $(echo "$(date +%s.%N)-$t0" | bc)s (manager ${PREFIX}1 at $IP1)"
docker exec "${PREFIX}1" docker node ls
[ "${SMOKE:-1}" = 1 ] || exit 0
# Smoke test: overlay network + a dnsrr service + a 3-replica job that health-checks it across nodes.
# NOTE: the host kernel has no IPVS (CONFIG_IP_VS unset), so swarm VIPs and the ingress routing mesh
# do NOT work: use --endpoint-mode dnsrr (and no -p published ports through ingress).
M="docker exec ${PREFIX}1"
$M docker network create -d overlay --attachable spike-ov >/dev/null
$M docker service create -d -q --no-resolve-image --name spike-sut --replicas "$N" --replicas-max-per-node 1 \
  --endpoint-mode dnsrr --network spike-ov perf-gate/sut:local >/dev/null
until $M docker service ls --filter name=spike-sut --format '{{.Replicas}}' | grep -q "^$N/$N"; do sleep 0.5; done
t1=$(date +%s.%N)
$M docker service create -d -q --no-resolve-image --mode replicated-job --replicas "$N" --replicas-max-per-node 1 \
  --network spike-ov --name spike-job perf-gate/sut:local -health http://spike-sut:8080/health >/dev/null
until [ "$($M docker service ps spike-job --format '{{.CurrentState}}' | grep -c '^Complete')" = "$N" ]; do
  if $M docker service ps spike-job --format '{{.CurrentState}}' | grep -q '^Failed'; then echo "spike-job: a task failed" >&2; break; fi
  sleep 0.25
done
echo "spike-job done in $(echo "$(date +%s.%N)-$t1" | bc)s"
$M docker service ps spike-job --format 'table {{.Name}}\t{{.Node}}\t{{.DesiredState}}\t{{.CurrentState}}\t{{.Error}}'
