import { describe, expect, it } from 'vitest';
import { numberListParam, numberParam } from '../src/documents/url/params';
import { checkNumberListText, checkNumberText, formatBound, readNumber, valueProblem } from '../src/documents/url/validate';

const T = numberParam({ key: 'T', label: 'size ratio', default: 10, min: 2, max: 100 });
const N = numberParam({ key: 'N', label: 'entries', default: 1e6, min: 1000, max: 1e12, integer: true });
const list = numberListParam({ key: 'Ts', label: 'size ratios', default: [10], min: 2, max: 100, minLength: 1, maxLength: 3 });

describe('validation messages name the setting and its range', () => {
  it('for out-of-range numbers', () => {
    expect(checkNumberText(T, '1')).toEqual({ ok: false, message: 'size ratio must be between 2 and 100' });
    expect(checkNumberText(T, '101')).toEqual({ ok: false, message: 'size ratio must be between 2 and 100' });
  });

  it('for integers, with grouped bounds', () => {
    expect(checkNumberText(N, '2.5')).toEqual({
      ok: false,
      message: 'entries must be a whole number between 1,000 and 1,000,000,000,000',
    });
  });

  it('for text that is not a number, and for an empty box', () => {
    expect(checkNumberText(T, '12abc')).toEqual({ ok: false, message: 'size ratio must be a number between 2 and 100' });
    expect(checkNumberText(T, '  ')).toEqual({ ok: false, message: 'size ratio is required: enter a number between 2 and 100' });
  });

  it('for lists, naming the bad item', () => {
    expect(checkNumberListText(list, '10, 1')).toEqual({
      ok: false,
      message: 'size ratios: item 2 ("1") must be between 2 and 100',
    });
    expect(checkNumberListText(list, '2 3 4 5')).toEqual({ ok: false, message: 'size ratios must list 1 to 3 values, got 4' });
    expect(checkNumberListText(list, '10, 10; 4')).toEqual({ ok: true, value: [10, 10, 4] });
  });

  it('and accept what people type', () => {
    expect(checkNumberText(T, ' 2 ')).toEqual({ ok: true, value: 2 });
    expect(checkNumberText(N, '1,000,000')).toEqual({ ok: true, value: 1e6 });
    expect(checkNumberText(N, '1e6')).toEqual({ ok: true, value: 1e6 });
    expect(readNumber('1_000')).toBe(1000);
    expect(readNumber('.5')).toBe(0.5);
    expect(readNumber('−3')).toBe(-3);
    expect(readNumber('0x10')).toBeNull();
    expect(readNumber('1e400')).toBeNull();
  });

  it('check values set by code (presets) by type and range', () => {
    expect(valueProblem(T, 50)).toBeNull();
    expect(valueProblem(T, '50')).toBe('size ratio must be a number');
    expect(valueProblem(list, [2, 200])).toBe('size ratios must be between 2 and 100');
  });

  it('write bounds readably', () => {
    expect(formatBound(1_000_000)).toBe('1,000,000');
    expect(formatBound(0.5)).toBe('0.5');
    expect(formatBound(1e-7)).toBe('1e-7');
    expect(formatBound(Infinity)).toBe('∞');
  });
});
