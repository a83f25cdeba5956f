"""Reading and writing files: the bottom layer, below the rules.

``textio`` reads untrusted text (bounded reads, byte-order marks, nesting
and number bounds, short excerpts for messages); ``atomic`` writes a file
whole or not at all.  Every layer above reads users' files or writes its
own through these two, so each hostile input is refused in one place.  This
package imports nothing else of ``odds``.
"""
