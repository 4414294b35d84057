/* The screen: a grid of cells that every view draws into. It is dumped as
 * text for scripted tests (:save-screen) and copied to the terminal through
 * ncurses when there is one, so both see the same drawing. */
#ifndef HIPPORT_TUI_SCREEN_H
#define HIPPORT_TUI_SCREEN_H

#include <stdbool.h>
#include <stdio.h>
#include <wchar.h>

typedef enum tui_attr {
	TUI_NORMAL,
	TUI_TITLE,    /* pane titles and the status bar */
	TUI_SELECTED, /* the selected line */
	TUI_REMOVED,  /* source lines a hunk replaces */
	TUI_ADDED,    /* port lines of a hunk */
	TUI_ACCEPTED, /* hunk markers by decision */
	TUI_REJECTED,
	TUI_DIM,      /* line numbers, hints */
	TUI_ERROR,
	TUI_KEYWORD,  /* syntax colour, from libclang's token kinds */
	TUI_COMMENT,
	TUI_LITERAL,
	TUI_CHANGED_OLD, /* the span of a line a hunk changes */
	TUI_CHANGED_NEW,
	TUI_WARNING, /* finding marks and counts below an error */
	TUI_NOTE,
	TUI_NATTRS
} tui_attr;

typedef struct tui_cell {
	wchar_t ch;
	unsigned char attr;
} tui_cell;

typedef struct tui_screen {
	int width, height;
	tui_cell *cells;
	bool curses; /* drawn on a terminal */
	bool color;
	bool wide; /* 256 colours */
	bool mouse; /* the terminal sends mouse events */
} tui_screen;

/* What the mouse did: the first button pressed (a click) or the wheel
 * turned, at (y, x) of the screen, 0-based. */
typedef enum tui_mouse_kind {
	TUI_MOUSE_CLICK,
	TUI_MOUSE_WHEEL_UP,
	TUI_MOUSE_WHEEL_DOWN
} tui_mouse_kind;

typedef struct tui_mouse {
	tui_mouse_kind kind;
	int y, x;
} tui_mouse;

int tui_screen_init(tui_screen *s, int width, int height);
void tui_screen_dispose(tui_screen *s);
/* A new size (a terminal resize); the content is cleared. */
int tui_screen_resize(tui_screen *s, int width, int height);
void tui_screen_clear(tui_screen *s);
/* Writes UTF-8 text at (y, x), at most width columns; returns columns used.
 * Tabs become spaces, control characters '?'; a byte that is not UTF-8
 * shows as its Windows-1252 (Latin-1) character. */
int tui_screen_put(tui_screen *s, int y, int x, int width, const char *text, size_t len, tui_attr attr);
/* Fills (y, x .. x + width) with spaces of attr. */
void tui_screen_fill(tui_screen *s, int y, int x, int width, tui_attr attr);
/* The screen as text, one line per row, trailing blanks dropped. */
int tui_screen_dump(const tui_screen *s, FILE *out);
/* The attributes, one letter per cell (tests see colour this way): ' ' normal,
 * T title, S selected, - removed, + added, A accepted, R rejected, d dim,
 * E error, k keyword, c comment, l literal, < and > changed spans, W warning,
 * N note. */
int tui_screen_dump_attrs(const tui_screen *s, FILE *out);

/* The terminal: ncurses set up, colours unless color is false (or the
 * terminal has none): 256 of them where the terminal has as many, else 8;
 * mouse events (clicks, the wheel) unless mouse is false or the terminal
 * sends none. */
int tui_terminal_open(tui_screen *s, bool color, bool mouse);
void tui_terminal_close(tui_screen *s);
/* Gives the terminal to another program (an editor) and takes it back. */
void tui_terminal_suspend(tui_screen *s);
void tui_terminal_resume(tui_screen *s);
/* The mouse event that came as the key KEY_MOUSE; < 0 for one the review
 * does not use (a release, another button). */
int tui_terminal_mouse(tui_mouse *out);
/* Copies the grid to the terminal. */
void tui_terminal_show(const tui_screen *s);

#endif
