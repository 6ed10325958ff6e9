/*
 * front.c - what was asked and what follows from it, in one place below
 * every part of the front door, so that each part reads it and none
 * reaches into another for it.
 */
#include "front.h"

struct front F;
