import System
