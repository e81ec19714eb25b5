import { foreignCpuTicks, parseCpuTicks, parseStatusBytes, parseSystemCpu } from './proc-stats';

describe('parseCpuTicks', () => {
  // A real /proc/<pid>/stat line: utime 1234 and stime 567 are fields 14 and 15.
  const line = '4242 (node) S 1 4242 4242 0 -1 4194560 12345 0 0 0 1234 567 0 0 20 0 11 0 123456 1234567890 45678 18446744073709551615';

  it('adds utime and stime', () => {
    expect(parseCpuTicks(line)).toBe(1801);
  });

  it('counts fields after the last parenthesis, so a command name with spaces and parentheses does not shift them', () => {
    expect(parseCpuTicks(line.replace('(node)', '(node (worker) x)'))).toBe(1801);
  });

  it('gives undefined for a line it cannot read', () => {
    expect(parseCpuTicks('garbage')).toBeUndefined();
    expect(parseCpuTicks('1 (node) S 1 2')).toBeUndefined();
  });
});

describe('parseStatusBytes', () => {
  const status = 'Name:\tnode\nVmPeak:\t 1000 kB\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nThreads:\t11\n';

  it('reads VmRSS and VmHWM in bytes', () => {
    expect(parseStatusBytes(status, 'VmRSS')).toBe(100 * 1024 * 1024);
    expect(parseStatusBytes(status, 'VmHWM')).toBe(200 * 1024 * 1024);
  });

  it('gives undefined when the field is missing (a zombie has no VmRSS)', () => {
    expect(parseStatusBytes('Name:\tnode\nState:\tZ (zombie)\n', 'VmRSS')).toBeUndefined();
  });
});

describe('parseSystemCpu', () => {
  it('counts user, nice and system as process time, out of the first eight fields, and the eighth (steal) apart', () => {
    const stat = 'cpu  100 5 50 800 40 3 2 0 0 0\ncpu0 50 2 25 400 20 1 1 0 0 0\nintr 12345\n';
    expect(parseSystemCpu(stat)).toEqual({ busy: 155, total: 1000, stolen: 0 });
    // A virtual machine whose host ran another guest on its CPUs: steal is neither busy nor idle here.
    expect(parseSystemCpu('cpu  100 5 50 800 40 3 2 70 0 0\n')).toEqual({ busy: 155, total: 1070, stolen: 70 });
  });

  it('gives undefined without the aggregate cpu line', () => {
    expect(parseSystemCpu('cpu0 1 2 3 4 5\n')).toBeUndefined();
  });
});

describe('foreignCpuTicks', () => {
  it('is the CPU time of processes outside the benchmark, beside all CPUs\' time', () => {
    const before = { system: { busy: 1000, total: 10_000, stolen: 50 }, ours: 400 };
    // 200 ticks on 2 CPUs = 1 s: 120 busy, of which the benchmark's processes used 90; 14 stolen by the host.
    const after = { system: { busy: 1120, total: 10_200, stolen: 64 }, ours: 490 };
    expect(foreignCpuTicks(before, after)).toEqual({ foreign: 30, stolen: 14, total: 200 });
    expect(foreignCpuTicks(before, undefined)).toBeUndefined();
  });
});
