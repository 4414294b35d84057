#include "tui/screen.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/text.h"

int tui_screen_init(tui_screen *s, int width, int height)
{
	memset(s, 0, sizeof(*s));
	return tui_screen_resize(s, width, height);
}

void tui_screen_dispose(tui_screen *s)
{
	free(s->cells);
	s->cells = NULL;
}

int tui_screen_resize(tui_screen *s, int width, int height)
{
	tui_cell *cells = calloc((size_t)(width > 0 ? width : 1) * (size_t)(height > 0 ? height : 1), sizeof(*cells));

	if (!cells)
		return util_error_set(UTIL_ENOMEM, "out of memory");
	free(s->cells);
	s->cells = cells;
	s->width = width;
	s->height = height;
	tui_screen_clear(s);
	return 0;
}

void tui_screen_clear(tui_screen *s)
{
	int i;

	for (i = 0; i < s->width * s->height; i++) {
		s->cells[i].ch = L' ';
		s->cells[i].attr = TUI_NORMAL;
	}
}

void tui_screen_fill(tui_screen *s, int y, int x, int width, tui_attr attr)
{
	int i;

	if (y < 0 || y >= s->height)
		return;
	for (i = x; i < x + width && i < s->width; i++) {
		if (i < 0)
			continue;
		s->cells[y * s->width + i].ch = L' ';
		s->cells[y * s->width + i].attr = (unsigned char)attr;
	}
}

int tui_screen_put(tui_screen *s, int y, int x, int width, const char *text, size_t len, tui_attr attr)
{
	mbstate_t st;
	size_t i = 0;
	int col = 0;

	if (y < 0 || y >= s->height)
		return 0;
	memset(&st, 0, sizeof(st));
	while (i < len && col < width && x + col < s->width) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, text + i, len - i, &st);
		int w;

		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			/* a byte that is not UTF-8 (a Latin-1 comment) shows as Windows-1252 */
			wc = (wchar_t)util_text_cp1252_char((unsigned char)text[i]);
			n = 1;
			memset(&st, 0, sizeof(st));
		}
		i += n;
		if (wc == L'\t') {
			int stop = (col / 4 + 1) * 4;

			while (col < stop && col < width && x + col < s->width) {
				s->cells[y * s->width + x + col].ch = L' ';
				s->cells[y * s->width + x + col].attr = (unsigned char)attr;
				col++;
			}
			continue;
		}
		if (wc == L'\n' || wc == L'\r')
			continue;
		w = wcwidth(wc);
		if (w < 1) {
			wc = L'?';
			w = 1;
		}
		if (w > 1 && (col + w > width || x + col + w > s->width))
			break;
		s->cells[y * s->width + x + col].ch = wc;
		s->cells[y * s->width + x + col].attr = (unsigned char)attr;
		col++;
		/* a wide character takes the next cell too */
		for (; w > 1; w--, col++) {
			s->cells[y * s->width + x + col].ch = 0;
			s->cells[y * s->width + x + col].attr = (unsigned char)attr;
		}
	}
	return col;
}

int tui_screen_dump(const tui_screen *s, FILE *out)
{
	int y, x;

	for (y = 0; y < s->height; y++) {
		int end = s->width;
		char buf[8];

		while (end > 0 && s->cells[y * s->width + end - 1].ch == L' ')
			end--;
		for (x = 0; x < end; x++) {
			wchar_t wc = s->cells[y * s->width + x].ch;
			mbstate_t st;
			size_t n;

			if (wc == 0)
				continue;
			memset(&st, 0, sizeof(st));
			n = wcrtomb(buf, wc, &st);
			if (n != (size_t)-1)
				fwrite(buf, 1, n, out);
		}
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}

int tui_screen_dump_attrs(const tui_screen *s, FILE *out)
{
	static const char letters[TUI_NATTRS + 1] = " TS-+ARdEkcl<>WN";
	int y, x;

	for (y = 0; y < s->height; y++) {
		int end = s->width;

		while (end > 0 && s->cells[y * s->width + end - 1].attr == TUI_NORMAL)
			end--;
		for (x = 0; x < end; x++)
			fputc(letters[s->cells[y * s->width + x].attr], out);
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}

/* How each attribute looks. Colour pair i is attribute i. Foregrounds on the
 * terminal's own background (-1) must read on a dark and on a light one: of
 * the 8 colours, red, magenta and bold blue (bright in xterm) do, yellow,
 * cyan, white and black do not; the 256 are mid tones of the fixed cube,
 * about as far from black as from white. Changed spans, titles and error and
 * warning marks set both colours, so they stand out on any background. mono
 * is what a terminal without colour gets (NO_COLOR, --no-color). */
typedef struct tui_colours {
	short fg, bg; /* -1: the terminal's own */
	attr_t attrs;
} tui_colours;

static const struct look {
	tui_colours c8, c256;
	attr_t mono;
} looks[TUI_NATTRS] = {
	[TUI_NORMAL] = { { -1, -1, A_NORMAL }, { -1, -1, A_NORMAL }, A_NORMAL },
	[TUI_TITLE] = { { COLOR_WHITE, COLOR_BLUE, A_BOLD }, { 231, 25, A_BOLD }, A_REVERSE },
	[TUI_SELECTED] = { { COLOR_BLACK, COLOR_CYAN, A_NORMAL }, { 16, 153, A_NORMAL }, A_REVERSE },
	[TUI_REMOVED] = { { COLOR_RED, -1, A_NORMAL }, { 160, -1, A_NORMAL }, A_NORMAL },
	[TUI_ADDED] = { { COLOR_GREEN, -1, A_NORMAL }, { 28, -1, A_NORMAL }, A_BOLD },
	[TUI_ACCEPTED] = { { COLOR_GREEN, -1, A_BOLD }, { 28, -1, A_BOLD }, A_BOLD },
	[TUI_REJECTED] = { { COLOR_RED, -1, A_BOLD }, { 160, -1, A_BOLD }, A_NORMAL },
	/* no grey among 8 colours: the terminal's own, faint */
	[TUI_DIM] = { { -1, -1, A_DIM }, { 244, -1, A_NORMAL }, A_DIM },
	[TUI_ERROR] = { { COLOR_WHITE, COLOR_RED, A_BOLD }, { 231, 160, A_BOLD }, A_REVERSE },
	[TUI_KEYWORD] = { { COLOR_BLUE, -1, A_BOLD }, { 32, -1, A_BOLD }, A_BOLD },
	/* cyan is unreadable on white in xterm's 8: faint instead */
	[TUI_COMMENT] = { { -1, -1, A_DIM }, { 66, -1, A_NORMAL }, A_NORMAL },
	[TUI_LITERAL] = { { COLOR_MAGENTA, -1, A_NORMAL }, { 133, -1, A_NORMAL }, A_NORMAL },
	[TUI_CHANGED_OLD] = { { COLOR_WHITE, COLOR_RED, A_BOLD }, { 231, 124, A_BOLD }, A_REVERSE },
	[TUI_CHANGED_NEW] = { { COLOR_BLACK, COLOR_GREEN, A_NORMAL }, { 231, 28, A_BOLD }, A_REVERSE },
	[TUI_WARNING] = { { COLOR_BLACK, COLOR_YELLOW, A_NORMAL }, { 16, 214, A_NORMAL }, A_BOLD },
	[TUI_NOTE] = { { COLOR_BLUE, -1, A_BOLD }, { 31, -1, A_BOLD }, A_NORMAL },
};

int tui_terminal_open(tui_screen *s, bool color, bool mouse)
{
	int i;

	if (!initscr())
		return util_error_set(UTIL_ERROR, "cannot start the terminal screen");
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	s->curses = true;
	/* presses, not clicks: ncurses would wait mouseinterval for a release
	 * to make a click of them; a second press on the same row opens */
	s->mouse = mouse && mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL) != 0;
	if (s->mouse)
		mouseinterval(0);
	s->color = color && has_colors() && start_color() == OK && COLORS >= 8 && COLOR_PAIRS >= TUI_NATTRS;
	if (s->color) {
		/* without default colours -1 means nothing: white on black then */
		bool defaults = use_default_colors() == OK;

		s->wide = COLORS >= 256;
		for (i = 1; i < TUI_NATTRS; i++) {
			const tui_colours *c = s->wide ? &looks[i].c256 : &looks[i].c8;

			init_pair((short)i, c->fg < 0 && !defaults ? COLOR_WHITE : c->fg,
				  c->bg < 0 && !defaults ? COLOR_BLACK : c->bg);
		}
	}
	return tui_screen_resize(s, COLS, LINES);
}

void tui_terminal_close(tui_screen *s)
{
	if (s->curses)
		endwin();
	s->curses = false;
}

void tui_terminal_suspend(tui_screen *s)
{
	if (s->curses)
		endwin();
}

void tui_terminal_resume(tui_screen *s)
{
	if (s->curses) {
		clear();
		refresh();
	}
}

int tui_terminal_mouse(tui_mouse *out)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return -1;
	out->y = ev.y;
	out->x = ev.x;
	if (ev.bstate & BUTTON1_PRESSED)
		out->kind = TUI_MOUSE_CLICK;
	else if (ev.bstate & BUTTON4_PRESSED)
		out->kind = TUI_MOUSE_WHEEL_UP;
	else if (ev.bstate & BUTTON5_PRESSED)
		out->kind = TUI_MOUSE_WHEEL_DOWN;
	else
		return -1;
	return 0;
}

void tui_terminal_show(const tui_screen *s)
{
	int y, x;

	if (!s->curses)
		return;
	for (y = 0; y < s->height && y < LINES; y++) {
		for (x = 0; x < s->width && x < COLS; x++) {
			const tui_cell *c = &s->cells[y * s->width + x];
			cchar_t cc;
			wchar_t w[2] = { c->ch, 0 };

			if (c->ch == 0)
				continue;
			/* the pair goes in its own argument: setcchar takes it
			 * over any COLOR_PAIR bits of the attributes */
			if (s->color)
				setcchar(&cc, w, (s->wide ? &looks[c->attr].c256 : &looks[c->attr].c8)->attrs,
					 (short)c->attr, NULL);
			else
				setcchar(&cc, w, looks[c->attr].mono, 0, NULL);
			mvadd_wch(y, x, &cc);
		}
	}
	refresh();
}
