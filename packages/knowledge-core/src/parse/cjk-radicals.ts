/**
 * Some PDF producers (Chromium/Skia, some Word exports) map a glyph shared by a CJK radical and an
 * ordinary character to the radical's code point, so "一" is extracted as "⼀" (U+2F00). Such text
 * looks right but neither matches a search nor tokenises. Kangxi radicals have NFKC mappings; the
 * supplement block does not, so its common stand-alone forms are listed here (Unicode's
 * EquivalentUnifiedIdeograph.txt).
 */

const SUPPLEMENT_EQUIVALENTS: Record<string, string> = {
  '⺅': '亻',
  '⺉': '刂',
  '⺖': '忄',
  '⺘': '扌',
  '⺝': '月',
  '⺟': '母',
  '⺠': '民',
  '⺡': '氵',
  '⺣': '灬',
  '⺨': '犭',
  '⺩': '王',
  '⺭': '礻',
  '⺰': '纟',
  '⺾': '艹',
  '⻁': '虎',
  '⻂': '衤',
  '⻄': '西',
  '⻅': '见',
  '⻆': '角',
  '⻈': '讠',
  '⻉': '贝',
  '⻋': '车',
  '⻌': '辶',
  '⻏': '阝',
  '⻐': '钅',
  '⻑': '長',
  '⻓': '长',
  '⻔': '门',
  '⻖': '阝',
  '⻘': '青',
  '⻙': '韦',
  '⻚': '页',
  '⻛': '风',
  '⻜': '飞',
  '⻝': '食',
  '⻠': '饣',
  '⻢': '马',
  '⻣': '骨',
  '⻤': '鬼',
  '⻥': '鱼',
  '⻦': '鸟',
  '⻧': '卤',
  '⻨': '麦',
  '⻩': '黄',
  '⻪': '黾',
  '⻬': '齐',
  '⻮': '齿',
  '⻰': '龙',
  '⻳': '龟',
};

const RADICAL = /[\u2e80-\u2eff\u2f00-\u2fdf]/g;

export function replaceCjkRadicals(text: string): string {
  return text.replace(RADICAL, (radical) => SUPPLEMENT_EQUIVALENTS[radical] ?? radical.normalize('NFKC'));
}
