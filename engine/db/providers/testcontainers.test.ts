import { describe, expect, it } from 'vitest';
import { candidateEngineSockets, probeContainerEngine } from './testcontainers.ts';

describe('container engine probe', () => {
  it('looks at DOCKER_HOST first, then the usual sockets', () => {
    const sockets = candidateEngineSockets({ DOCKER_HOST: 'unix:///custom/docker.sock', XDG_RUNTIME_DIR: '/run/user/1000' });
    expect(sockets[0]).toBe('/custom/docker.sock');
    expect(sockets).toContain('/var/run/docker.sock');
    expect(sockets).toContain('/run/user/1000/podman/podman.sock');
  });

  it('says why no engine is available instead of hanging', async () => {
    const started = Date.now();
    const probe = await probeContainerEngine({ DOCKER_HOST: 'unix:///nonexistent/docker.sock', HOME: '/nonexistent' });
    expect(Date.now() - started).toBeLessThan(3000);
    if (!probe.available) expect(probe.reason).toMatch(/socket|ping/);
  });

  it('a tcp DOCKER_HOST that does not answer is reported within the ping timeout', async () => {
    const probe = await probeContainerEngine({ DOCKER_HOST: 'tcp://127.0.0.1:1' });
    expect(probe).toEqual({ available: false, reason: 'DOCKER_HOST=tcp://127.0.0.1:1 does not answer a ping' });
  });
});
