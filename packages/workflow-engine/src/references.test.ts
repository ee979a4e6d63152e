import { describe, expect, it } from 'vitest';
import { REFERENCE_PATTERN, referencesIn, renderReferences } from './references.ts';

describe('references', () => {
  it('finds node, sys, env and deep references in order', () => {
    expect(referencesIn('Hi {{#start.name#}}, {{#sys.query#}} / {{#env.KEY#}} {{#llm-1.structured.a.b#}}')).toEqual([
      ['start', 'name'],
      ['sys', 'query'],
      ['env', 'KEY'],
      ['llm-1', 'structured', 'a', 'b'],
    ]);
  });

  it('ignores what is not a reference', () => {
    expect(referencesIn('{{ name }} {{#start#}} {#start.x#} {{#a b.c#}} plain')).toEqual([]);
  });

  it('renders strings as they are, objects and arrays as JSON, null and undefined as nothing', () => {
    const values: Record<string, unknown> = {
      'a.s': 'text',
      'a.n': 3,
      'a.o': { k: [1, 'x'] },
      'a.l': [1, 2],
      'a.z': null,
      'a.b': false,
    };
    const read = (selector: string[]) => values[selector.join('.')];
    expect(renderReferences('{{#a.s#}}|{{#a.n#}}|{{#a.o#}}|{{#a.l#}}|{{#a.z#}}|{{#a.u#}}|{{#a.b#}}', read)).toBe(
      'text|3|{"k":[1,"x"]}|[1,2]|||false',
    );
  });

  it('keeps the shared pattern usable after use', () => {
    referencesIn('{{#a.b#}}');
    renderReferences('{{#a.b#}}', () => 'x');
    expect('{{#a.b#}}'.match(REFERENCE_PATTERN)).toEqual(['{{#a.b#}}']);
    expect(referencesIn('{{#a.b#}}')).toEqual([['a', 'b']]);
  });
});
