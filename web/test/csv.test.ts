import { describe, expect, it } from 'vitest';
import { barChartCsv, csvCell, lineChartCsv, scatterChartCsv, tableCsv, toCsv } from '../src/ui/charts/csv';
import { exportFileName, stateSlug } from '../src/ui/download/filename';

describe('CSV cells', () => {
  it('quote only what needs quoting and leave non-finite numbers empty', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(0.1)).toBe('0.1');
    expect(csvCell(1e-12)).toBe('1e-12');
    expect(csvCell(NaN)).toBe('');
    expect(csvCell(Infinity)).toBe('');
    expect(csvCell(null)).toBe('');
    expect(toCsv(['a', 'b'], [[1, 'x']])).toBe('a,b\n1,x\n');
  });
});

describe('chart CSV', () => {
  const x = { label: 'memory', unit: 'bits per key' };
  const y = { label: 'false-positive rate', unit: 'probability' };

  it('is wide (one column per series, units in the header) when the series share x values', () => {
    const csv = lineChartCsv({
      x,
      y,
      series: [
        { id: 'a', label: 'uniform', points: [{ x: 0, y: 1 }, { x: 10, y: 0.0082 }] },
        { id: 'b', label: 'Monkey, exact', points: [{ x: 0, y: 1 }, { x: 10, y: NaN }] },
      ],
    });
    expect(csv).toBe(
      'memory (bits per key),uniform (probability),"Monkey, exact (probability)"\n0,1,1\n10,0.0082,\n',
    );
  });

  it('is long (series, x, y) when the x values differ', () => {
    const csv = lineChartCsv({
      x,
      y: { label: 'cost' },
      series: [
        { id: 'model', label: 'model', points: [{ x: 1, y: 2 }, { x: 2, y: 3 }] },
        { id: 'measured', label: 'measured', markers: true, points: [{ x: 1.5, y: 2.4 }] },
      ],
    });
    expect(csv.split('\n')).toEqual(['series,memory (bits per key),cost', 'model,1,2', 'model,2,3', 'measured,1.5,2.4', '']);
  });

  it('has a row per category for bars and a row per point for scatter plots', () => {
    expect(
      barChartCsv({
        x: { label: 'level' },
        y,
        categories: ['L1', 'L2'],
        groups: [
          { id: 'u', label: 'uniform', values: [0.008, 0.008] },
          { id: 'm', label: 'Monkey', values: [1e-4, 0.01] },
        ],
      }),
    ).toBe('level,uniform (probability),Monkey (probability)\nL1,0.008,0.0001\nL2,0.008,0.01\n');
    expect(
      scatterChartCsv({
        x: { label: 'lookup cost', unit: 'I/O' },
        y: { label: 'update cost', unit: 'I/O' },
        series: [{ id: 's', label: 'designs', points: [{ x: 1, y: 2, label: 'T=4' }, { x: 3, y: 4 }] }],
        highlight: { x: 1, y: 2, label: 'best' },
      }),
    ).toBe('series,lookup cost (I/O),update cost (I/O),label\ndesigns,1,2,T=4\ndesigns,3,4,\nhighlight,1,2,best\n');
  });

  it('of a table follows its columns', () => {
    const rows = [{ level: 1, entries: 900, name: 'a' }];
    expect(
      tableCsv(
        [
          { key: 'level', label: 'level' },
          { key: 'entries', label: 'entries', unit: 'entries' },
        ],
        rows,
      ),
    ).toBe('level,entries (entries)\n1,900\n');
  });
});

describe('export file names', () => {
  it('name the page, the chart and the state', () => {
    expect(stateSlug('v=1&b=10&T=10,4&pol=lev')).toBe('b10_T10-4_pol-lev');
    expect(exportFileName('learn', 'bloom-fpr', 'v=1&b=7.5&pol=tier', 'svg')).toBe('lsm-learn_bloom-fpr_b7.5_pol-tier.svg');
    expect(exportFileName('Memory pressure', 'Cache hits!', '', 'csv')).toBe('lsm-memory-pressure_cache-hits.csv');
  });

  it('stay short with long state', () => {
    const long = `v=1&T=${Array.from({ length: 100 }, () => '10').join(',')}`;
    expect(exportFileName('moose', 'curve', long, 'png').length).toBeLessThanOrEqual(154);
  });
});
